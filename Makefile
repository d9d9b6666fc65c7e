# orch: make targets. `make` alone lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NODE ?= node
IMAGE ?= orch:dev
# The Docker CLI (DOCKER=/usr/bin/docker picks Debian's where another one lacks buildx).
DOCKER ?= docker
NODE_IMAGE ?= node:20-bookworm-slim
# The CA bundle npm trusts here (npm's cafile) goes to the image build as a secret, for builds
# behind a TLS-inspecting proxy; NPMRC names an .npmrc to pass the same way.
NPM_CA ?= $(shell npm config get cafile 2>/dev/null | grep -v '^null$$' | grep -v '^undefined$$')
NPMRC ?=
comma := ,
TEST_ARGS ?=

.PHONY: help deps build run test test-unit test-integration test-e2e chaos lint format fuzz proto verify-proto bench images e2e-deploy local-base-images compose-config clean

help: ## list the targets
	@echo 'usage: make <target>'
	@echo
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z0-9-]+):.*## (.*)/  \1\t\2/' | expand -t 20

deps: ## install what is missing: etcd, nats-server, python3-kubernetes (apt-get), npm dependencies (npm ci)
	@bash scripts/ensure-deps.sh

build: deps ## compile every workspace (npx tsc --build) into its dist/, then bundle each service (scripts/bundle.mjs)
	npx tsc --build
	$(NODE) scripts/bundle.mjs

run: build ## start the suite on https://127.0.0.1:6443 (env ORCH_PORT, ORCH_HOME, ORCH_GATEWAYS)
	$(NODE) scripts/run.mjs

test: build ## run the three tiers (unit, integration, e2e), then count tests per tier (TEST_ARGS: tiers, path filters)
	$(NODE) scripts/test.mjs $(TEST_ARGS)

test-unit: build ## the unit tier: tests that start no process (TEST_ARGS: path filters)
	$(NODE) scripts/test.mjs unit $(TEST_ARGS)

test-integration: build ## the integration tier: packages/ and services/ tests on suites (shared ones started once)
	$(NODE) scripts/test.mjs integration $(TEST_ARGS)

test-e2e: build ## the end-to-end tier: e2e/ (kubectl, client-node, Python client)
	$(NODE) scripts/test.mjs e2e $(TEST_ARGS)

chaos: build ## the chaos test, longer: CHAOS_ROUNDS=3 rounds of kill -9 (CHAOS_SECONDS: at least that long)
	CHAOS_ROUNDS=$${CHAOS_ROUNDS:-3} $(NODE) --test --test-concurrency=1 e2e/dist/chaos/chaos.test.js

lint: build ## ESLint (type-aware, folder layers included), Prettier's check, source files over 600 lines; CI runs it before the tests
	npx eslint --max-warnings 0 .
	npx prettier --check --log-level warn .
	$(NODE) scripts/long-files.mjs

format: deps ## rewrite the tree in Prettier's format and apply ESLint's automatic fixes
	npx prettier --write --log-level warn .
	npx eslint --fix .

fuzz: build ## fuzz the API long from a random seed (FUZZ_SECONDS=600, FUZZ_SEED to replay)
	$(NODE) e2e/dist/fuzz/main.js

proto: deps ## regenerate packages/proto/src/generated and packages/api/src/generated from proto/
	$(NODE) packages/proto/scripts/generate.mjs
	$(NODE) packages/proto/scripts/generate-api-types.mjs

verify-proto: proto ## fail if the committed generated code differs from a fresh generation
	git diff --exit-code packages/proto/src/generated packages/api/src/generated
	@untracked="$$(git ls-files --others --exclude-standard packages/proto/src/generated packages/api/src/generated)"; \
	if [ -n "$$untracked" ]; then echo "not committed:"; echo "$$untracked"; exit 1; fi

bench: build ## run the load generators (bench/)
	$(NODE) bench/dist/main.js

images: ## build the image (IMAGE=orch:dev, NODE_IMAGE=...) from deploy/Dockerfile with BuildKit; prints its size
	DOCKER_BUILDKIT=1 $(DOCKER) build -f deploy/Dockerfile -t $(IMAGE) --build-arg NODE_IMAGE=$(NODE_IMAGE) \
	  $(if $(wildcard $(NPM_CA)),--secret id=ca$(comma)src=$(NPM_CA)) $(if $(NPMRC),--secret id=npmrc$(comma)src=$(NPMRC)) .
	@$(DOCKER) image inspect -f '{{index .RepoTags 0}}: {{.Size}} bytes' $(IMAGE) \
	  | awk -F': ' '{ printf "%s: %.0f MB\n", $$1, $$2 / 1e6 }'

e2e-deploy: ## the HA topology in containers under load through container faults (scripts/e2e-deploy.mjs; root, installs and starts a Docker engine if missing)
	$(NODE) scripts/e2e-deploy.mjs

local-base-images: ## build stand-ins for the public base images from Debian's packages (root, Docker engine; deploy/local-base)
	DOCKER=$(DOCKER) sh deploy/local-base/build.sh

compose-config: ## check docker-compose.yml and deploy/compose/ha.yml (docker-compose or docker compose; no engine needed)
	@if command -v docker-compose >/dev/null 2>&1; then c=docker-compose; \
	elif docker compose version >/dev/null 2>&1; then c='docker compose'; \
	else echo 'neither docker-compose nor the docker compose plugin is installed' >&2; exit 1; fi; \
	$$c config -q && $$c -f deploy/compose/ha.yml --project-directory . config -q
	@echo 'docker-compose.yml, deploy/compose/ha.yml: ok'

clean: ## remove build outputs (dist/, *.tsbuildinfo); keeps .run/ state
	-npx tsc --build --clean
	rm -rf packages/*/dist services/*/dist e2e/dist bench/dist
	find . -name '*.tsbuildinfo' -not -path './node_modules/*' -delete
