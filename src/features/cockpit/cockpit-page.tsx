import { useT } from '../../i18n/i18n-context';
import { PageHeader } from '../../ui/page-header';
import { useSession } from '../auth/session-context';
import { greetingKey } from './greeting';

export function CockpitPage() {
  const t = useT();
  const { claims } = useSession();
  const firstName = claims?.name.split(' ')[0] ?? '';
  return <PageHeader title={t(greetingKey(new Date().getHours()), { name: firstName })} description={t('cockpit.intro')} />;
}
