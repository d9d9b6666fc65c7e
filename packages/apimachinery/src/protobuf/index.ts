export {
  EnvelopeError,
  FrameReader,
  canEncode,
  decodeEnvelope,
  decodeWatchFrame,
  encodeEnvelope,
  encodeWatchFrame,
  hasProtobufMagic,
  messageFor,
  protobufMagic,
  protobufMediaTypes,
} from './envelope.js';
