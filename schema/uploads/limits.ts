/** The upload limits the byte transports and their messages quote (the domain owns them). */
export {
  BASE64_MAX_BYTES,
  MAX_CHUNK_BYTES,
  MULTIPART_MAX_BYTES,
  RECOMMENDED_CHUNK_BYTES,
} from '../../src/domains/uploads/index.ts';
