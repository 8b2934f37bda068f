import { useEffect } from 'react';
import { useT } from '../i18n/i18n-context';
import { NoticeRegion, dismissNotice, showNotice } from '../ui/notices';
import { useServiceWorkerUpdate } from '../offline/sw-register';

const UPDATE_NOTICE = 'sw-update';

/** App-wide notices; a new version is offered, never forced (DESIGN.md, Offline). */
export function AppNoticesRegion() {
  const t = useT();
  const { needRefresh, update } = useServiceWorkerUpdate();
  useEffect(() => {
    if (!needRefresh) return;
    showNotice({
      id: UPDATE_NOTICE,
      tone: 'info',
      message: t('app.updateAvailable'),
      action: { label: t('app.updateNow'), onAction: update },
    });
    return () => dismissNotice(UPDATE_NOTICE);
  }, [needRefresh, update, t]);
  return <NoticeRegion />;
}
