// The one plugin contract of the three processes that run admission plugins (the gateway, the
// admission service, the certificates service): k8s.io/apiserver/pkg/admission's Interface,
// MutationInterface and ValidationInterface. Each process gives the attributes its plugins see
// (`A`: the gateway's AdmissionAttributes, the Admit call's request in the services) and what
// a plugin may add to the answer besides allowing or denying (`C`: the services' warnings and
// audit annotations; nothing in the gateway, whose attributes carry the warning sink). A denial
// is a thrown StatusError (`@orch/apimachinery/errors`).

/** The admission operations (upstream's admission.Operation). */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** Every plugin: its name and the operations it handles (upstream's admission.Interface). */
export interface AdmissionInterface<N extends string = string> {
  /** The name the admission flags use. */
  readonly name: N;
  handles(operation: AdmissionOperation): boolean;
}

/** A plugin of the mutating phase: may change the object (upstream's MutationInterface). */
export interface MutationInterface<A, C = void> {
  admit(attributes: A, context: C): Promise<void>;
}

/** A plugin of the validating phase: changes nothing (upstream's ValidationInterface). */
export interface ValidationInterface<A, C = void> {
  validate(attributes: A, context: C): Promise<void>;
}

/**
 * A plugin: the Interface, with admit (mutating), validate (validating) or both. A chain runs
 * every plugin's admit in order, then every plugin's validate in order; the first denial ends it.
 */
export interface AdmissionPluginInterface<A, C = void, N extends string = string>
  extends
    AdmissionInterface<N>,
    Partial<MutationInterface<A, C>>,
    Partial<ValidationInterface<A, C>> {}
