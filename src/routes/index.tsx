import { createFileRoute, redirect } from '@tanstack/react-router';

// "/" is the cockpit (spec 1 §2); one address per screen keeps the menu highlight and history simple.
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: '/cockpit', replace: true });
  },
});
