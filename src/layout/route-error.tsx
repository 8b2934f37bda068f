import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useT } from '../i18n/i18n-context';
import { useOnlineStatus } from '../offline/online-status';
import { Button, LinkButton } from '../ui/button';

/**
 * What a screen shows when it could not be built (a part of the app that did not load, a bug):
 * in the user's language, what to do next, never a bare English 'Something went wrong'. Offline the
 * usual cause is a part of the app this device has not stored yet.
 */
export function RouteError({ reset }: ErrorComponentProps) {
  const t = useT();
  const router = useRouter();
  const online = useOnlineStatus();
  return (
    <div role="alert" className="mx-auto flex max-w-xl flex-col gap-3 rounded-lg border border-danger bg-danger-soft px-5 py-4 text-fg">
      <p className="font-semibold">{t('routeError.title')}</p>
      <p>{t(online ? 'routeError.text' : 'routeError.offline')}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="primary"
          onPress={() => {
            reset();
            void router.invalidate();
          }}
        >
          {t('ui.common.retry')}
        </Button>
        <LinkButton href="/cockpit" variant="secondary">
          {t('notFound.toCockpit')}
        </LinkButton>
      </div>
    </div>
  );
}
