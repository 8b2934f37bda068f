import { createFileRoute } from '@tanstack/react-router';
import { StripeSuccessPage } from '../../../../features/public/stripe-success-page';

function ConfigureSuccess() {
  const { checkoutSessionId } = Route.useParams();
  return <StripeSuccessPage variant="configure" checkoutSessionId={checkoutSessionId} />;
}

export const Route = createFileRoute('/stripesepa/configure/success/$checkoutSessionId')({
  component: ConfigureSuccess,
});
