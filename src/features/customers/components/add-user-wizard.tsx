import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { CustomerDetail } from '../../../../contract/customers';
import { useT } from '../../../i18n/i18n-context';
import { AlertDialog } from '../../../ui/alert-dialog';
import { useForm } from '../../../ui/use-form';
import { Wizard } from '../../../ui/wizard';
import { createDashboardUserMutation } from '../api/customer-queries';
import { buildAddUserPayload, createFailure, emptyUser, userRules, type CreateFailure, type UserValues } from '../customer-form';
import { Summary, UserFields } from './customer-fields';

type Outcome = { kind: 'created'; email: string } | { kind: 'failed'; failure: CreateFailure } | null;

/**
 * 'add external user' (spec 3 §2): the user's name, e-mail and role, then confirm. The person gets
 * the invitation mail with the link to set a password; the customer's user table reloads.
 */
export function AddUserWizard({ customer, isOpen, onClose }: { customer: CustomerDetail; isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [initial] = useState(emptyUser);
  const user = useForm<UserValues>(initial, userRules);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const add = useMutation({
    ...createDashboardUserMutation(),
    onSuccess: () => {
      const email = user.values.email.trim();
      onClose();
      setOutcome({ kind: 'created', email });
    },
    onError: (error) => {
      const failure = createFailure(error);
      if (failure !== 'offline') onClose();
      setOutcome({ kind: 'failed', failure });
    },
  });

  const v = user.values;
  return (
    <>
      <Wizard
        isOpen={isOpen}
        onClose={onClose}
        onReset={user.reset}
        size="lg"
        title={t('customers.addUser.title', { name: customer.companyName })}
        submitLabel={t('ui.common.save')}
        isSubmitting={add.isPending}
        onSubmit={() => add.mutateAsync(buildAddUserPayload(customer, user.values)).catch(() => undefined)}
        steps={[
          {
            id: 'user',
            title: t('customers.addUser.stepForm'),
            isValid: user.isValid,
            onNext: user.trySubmit,
            content: <UserFields form={user} autoFocus />,
          },
          {
            id: 'confirm',
            title: t('customers.addUser.stepConfirm'),
            isValid: user.isValid,
            content: (
              <Summary
                intro={t('customers.addUser.confirmHint')}
                entries={[
                  [t('customers.fields.customerId'), customer.customerId],
                  [t('customers.fields.firstName'), v.firstName.trim()],
                  [t('customers.fields.lastName'), v.lastName.trim()],
                  [t('customers.fields.email'), v.email.trim()],
                  [t('customers.fields.role'), v.role.trim()],
                ]}
              />
            ),
          },
        ]}
      />
      <AlertDialog
        isOpen={outcome?.kind === 'created'}
        onClose={() => setOutcome(null)}
        variant="success"
        title={t('customers.addUser.successTitle')}
      >
        {outcome?.kind === 'created' && <p>{t('customers.addUser.successText', { email: outcome.email })}</p>}
      </AlertDialog>
      <AlertDialog
        isOpen={outcome?.kind === 'failed'}
        onClose={() => setOutcome(null)}
        variant="error"
        title={outcome?.kind === 'failed' && outcome.failure === 'mistake' ? t('customers.errors.mistakeTitle') : t('errors.title')}
      >
        {outcome?.kind === 'failed' && <p>{t(`customers.errors.${outcome.failure}`)}</p>}
      </AlertDialog>
    </>
  );
}
