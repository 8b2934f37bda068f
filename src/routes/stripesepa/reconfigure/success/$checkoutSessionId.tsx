import { createFileRoute } from '@tanstack/react-router';
import { StripeSuccessPage } from '../../../../features/public/stripe-success-page';

function ReconfigureSuccess() {
  const { checkoutSessionId } = Route.useParams();
  return <StripeSuccessPage variant="reconfigure" checkoutSessionId={checkoutSessionId} />;
}

export const Route = createFileRoute('/stripesepa/reconfigure/success/$checkoutSessionId')({
  component: ReconfigureSuccess,
});
