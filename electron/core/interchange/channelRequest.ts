import { contract, type Channel, type ParsedRequestOf, type RequestOf } from '../../../shared/ipc/contract';

/**
 * A request built by an import, parsed by its channel's own schema (defaults applied), so what an
 * import hands a service is exactly what that channel would accept from a user; a record that maps
 * to a bad request is refused by the same rule.
 */
export function channelRequest<C extends Channel>(channel: C, request: RequestOf<C>): ParsedRequestOf<C> {
  return contract[channel].request.parse(request) as ParsedRequestOf<C>;
}
