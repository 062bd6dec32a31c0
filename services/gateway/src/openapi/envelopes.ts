import type { SchemaComponents } from './schemas.ts';

type Json = Record<string, unknown>;

/** The envelopes every answer comes in, as named components. */
export function addEnvelopes(components: SchemaComponents): void {
  components.add('SuccessEnvelope', {
    type: 'object',
    description:
      'Every successful answer: `status` is `success`, `data` the payload (absent for onboard-users).',
    required: ['status', 'message'],
    properties: {
      status: { type: 'string', const: 'success' },
      message: { type: 'string', description: 'A short human-readable outcome.' },
    },
  });
  components.add('Failure', {
    type: 'object',
    description: 'What went wrong: the failure envelope\u2019s `data`.',
    required: ['errorType', 'appErrorCode', 'error'],
    properties: {
      errorType: {
        type: 'string',
        description:
          'The kind of failure: `invalid`, `unauthorized`, `not_found`, `conflict`, `unprocessable`, `rate_limited`, `unavailable`.',
      },
      appErrorCode: {
        type: 'string',
        description: 'What went wrong, for code (each operation lists its values)',
      },
      error: { type: 'string', description: 'What went wrong, for people: names the field or the object' },
    },
  });
  components.add('FailureEnvelope', {
    type: 'object',
    description: 'Every failed answer: `status` is `failed`, `data` says what went wrong.',
    required: ['status', 'message', 'data'],
    properties: {
      status: { type: 'string', const: 'failed' },
      message: { type: 'string', description: 'A short human-readable outcome.' },
      data: components.ref('Failure'),
    },
  });
}

/** An operation's success answer: the envelope, its own `message`, and `data` unless it has none. */
export function successSchema(components: SchemaComponents, message: string, data: Json | undefined): Json {
  return {
    allOf: [
      components.ref('SuccessEnvelope'),
      {
        type: 'object',
        ...(data ? { required: ['data'] } : {}),
        properties: { message: { const: message }, ...(data ? { data } : {}) },
      },
    ],
  };
}

/** A failure answer whose `appErrorCode` is one of `codes`. */
export function failureSchema(components: SchemaComponents, codes: string[]): Json {
  const code = {
    type: 'object',
    properties: { appErrorCode: { type: 'string', enum: [...new Set(codes)] } },
  };
  return {
    allOf: [
      components.ref('FailureEnvelope'),
      { type: 'object', properties: { data: { allOf: [components.ref('Failure'), code] } } },
    ],
  };
}
