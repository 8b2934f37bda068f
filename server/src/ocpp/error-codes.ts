/**
 * The CALLERROR codes OCPP-J 1.6 knows (§4.2.3, with the errata's spelling of
 * OccurrenceConstraintViolation, which ocpp-rpc uses too). ocpp-rpc answers frames it cannot read
 * with OCPP 2.0.1's RpcFrameworkError / MessageTypeNotSupported, which a 1.6 charge point does not
 * know; those are translated before they leave.
 */
const ocpp16Codes = new Set([
  'NotImplemented',
  'NotSupported',
  'InternalError',
  'ProtocolError',
  'SecurityError',
  'FormationViolation',
  'PropertyConstraintViolation',
  'OccurrenceConstraintViolation',
  'OccurenceConstraintViolation',
  'TypeConstraintViolation',
  'GenericError',
]);

const translations: Record<string, string> = {
  // A frame that is no JSON array or has no message id is syntactically incorrect.
  RpcFrameworkError: 'FormationViolation',
  FormatViolation: 'FormationViolation',
  MessageTypeNotSupported: 'NotSupported',
};

/** A CALLERROR code as OCPP 1.6 spells it. */
export function ocpp16ErrorCode(code: string): string {
  if (ocpp16Codes.has(code)) return code;
  return translations[code] ?? 'GenericError';
}

const CALLERROR = 4;

/** An outgoing frame with a CALLERROR's code made a 1.6 one; every other frame unchanged. */
export function ocpp16Frame(frame: string): string {
  if (!frame.startsWith(`[${CALLERROR},`)) return frame;
  try {
    const parsed = JSON.parse(frame) as unknown[];
    if (parsed[0] !== CALLERROR || typeof parsed[2] !== 'string') return frame;
    const code = ocpp16ErrorCode(parsed[2]);
    if (code === parsed[2]) return frame;
    return JSON.stringify([CALLERROR, parsed[1], code, parsed[3] ?? '', parsed[4] ?? {}]);
  } catch {
    return frame;
  }
}
