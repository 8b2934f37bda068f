import type { ConfigurationKey } from '../../../../contract/ocpp';
import { useT } from '../../../i18n/i18n-context';
import { HeaderCells } from './facts';

/** A station's configuration keys as it reported them: key, value, read-only. */
export function ConfigurationTable({ keys, label }: { keys: readonly ConfigurationKey[]; label: string }) {
  const t = useT();
  return (
    <div className="max-h-[420px] overflow-auto rounded-md border border-border">
      <table aria-label={label} className="w-full border-collapse text-sm">
        <thead className="sticky top-0 bg-surface-2 text-start">
          <HeaderCells
            className="px-3 py-2 text-start font-semibold"
            labels={[t('ocpp.configuration.key'), t('ocpp.configuration.value'), t('ocpp.configuration.access')]}
          />
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.key} className="border-t border-border">
              <th scope="row" className="px-3 py-2 text-start font-normal break-all">
                {k.key}
              </th>
              <td className="px-3 py-2 break-all tabular-nums" data-testid={`config-${k.key}`}>
                {k.value ?? '–'}
              </td>
              <td className="px-3 py-2 whitespace-nowrap text-muted">
                {t(k.readonly ? 'ocpp.configuration.readonly' : 'ocpp.configuration.writable')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
