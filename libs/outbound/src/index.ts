export { type OutboundMode, refusalFor, urlRefusal } from './address-policy.ts';
export {
  createOutboundClient,
  type OutboundClient,
  type OutboundOptions,
  OutboundRefused,
  type OutboundResponse,
} from './client.ts';
