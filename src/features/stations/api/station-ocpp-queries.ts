import { queryOptions } from '@tanstack/react-query';
import {
  stationOcppSchema,
  stationOperationAnswerSchema,
  stationPasswordAnswerSchema,
  type StationOperationBody,
} from '../../../../contract/ocpp';
import { apiRequest } from '../../../api/client';
import { plainWrite } from '../../../api/mutations';
import { stationKeys } from './station-keys';
import { stationDetailQueryOptions } from './station-queries';

/** GET /bff/connectors/{id}/ocpp: boot data, connection, last reported configuration, operation history. */
export const stationOcppQueryOptions = (connectorId: string) =>
  queryOptions({
    queryKey: stationKeys.ocpp(connectorId),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: `/connectors/${encodeURIComponent(connectorId)}/ocpp`,
        schema: stationOcppSchema,
        signal,
      }),
  });

/**
 * POST /bff/ocpp-client/change-configuration: one operation, answered with what the station said.
 * A plain write, never the outbox: a reset or an unlock sent hours later would surprise everyone.
 * Answered or refused, the station's history, its figures and the list rows are asked again.
 */
export const stationOperationMutation = () =>
  plainWrite({
    mutationKey: [...stationKeys.all, 'operation'],
    request: (body: StationOperationBody) => ({ service: 'bff', path: '/ocpp-client/change-configuration', method: 'POST', body }),
    schema: stationOperationAnswerSchema,
    refreshes: (body) => [stationOcppQueryOptions(body.connectorId), stationDetailQueryOptions(body.connectorId), stationKeys.lists()],
  });

/** POST /bff/connectors/{id}/station-password (admins): a new password, shown once. */
export const stationPasswordMutation = () =>
  plainWrite({
    mutationKey: [...stationKeys.all, 'station-password'],
    request: (connectorId: string) => ({
      service: 'bff',
      path: `/connectors/${encodeURIComponent(connectorId)}/station-password`,
      method: 'POST',
    }),
    schema: stationPasswordAnswerSchema,
    refreshes: (connectorId) => [stationOcppQueryOptions(connectorId)],
  });
