export { refusalFor, urlRefusal } from './address-policy.ts';
export {
  createOutboundClient,
  type OutboundClient,
  OutboundRefused,
} from './client.ts';
export { outboundFailure } from './failure-class.ts';
