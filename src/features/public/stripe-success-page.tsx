import { useT } from '../../i18n/i18n-context';
import { SuccessIcon } from '../../ui/icons';
import { PublicLayout } from '../../layout/public-layout';

/** Public pages Stripe sends an end customer to after the direct-debit mandate was set up (spec 3 §2). */
export function StripeSuccessPage({ variant, checkoutSessionId }: { variant: 'configure' | 'reconfigure'; checkoutSessionId: string }) {
  const t = useT();
  return (
    <PublicLayout>
      <div className="flex flex-col items-center text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-success-soft text-success">
          <SuccessIcon size={32} />
        </span>
        <h1 className="mt-4 text-2xl font-semibold text-fg">{t(`stripe.${variant}Title`)}</h1>
        <p className="mt-2 text-fg">{t(`stripe.${variant}Text`)}</p>
        {variant === 'reconfigure' && <p className="mt-2 text-fg">{t('stripe.reconfigureMail')}</p>}
        <p className="mt-4 break-all text-sm text-muted">{t('stripe.reference', { id: checkoutSessionId })}</p>
      </div>
    </PublicLayout>
  );
}
