import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { CustomerDetail } from '../../../../contract/customers';
import { useT } from '../../../i18n/i18n-context';
import { CreateWizard } from '../../../layout/create-wizard';
import { useForm } from '../../../ui/use-form';
import { createDashboardUserMutation } from '../api/customer-queries';
import { buildAddUserPayload, emptyUser, userRules, type UserValues } from '../customer-form';
import { Summary, UserFields, failureMessage } from './customer-fields';
import { useEmailCheck } from './use-email-check';

/**
 * 'add external user' (spec 3 §2): the user's name, e-mail and role, then confirm. The person gets
 * the invitation mail with the link to set a password; the customer's user table reloads.
 */
export function AddUserWizard({ customer, isOpen, onClose }: { customer: CustomerDetail; isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [initial] = useState(emptyUser);
  const user = useForm<UserValues>(initial, userRules);
  const emailCheck = useEmailCheck(user);

  const add = useMutation(createDashboardUserMutation());

  const v = user.values;
  return (
    <CreateWizard
      isOpen={isOpen}
      onClose={onClose}
      onReset={() => {
        user.reset();
        emailCheck.reset();
      }}
      size="lg"
      title={t('customers.addUser.title', { name: customer.companyName })}
      submitLabel={t('ui.common.save')}
      send={() => add.mutateAsync(buildAddUserPayload(customer, user.values))}
      isSending={add.isPending}
      successTitle={t('customers.addUser.successTitle')}
      successBody={() => <p>{t('customers.addUser.successText', { email: v.email.trim() })}</p>}
      failure={(error) => failureMessage(t, error, { markTaken: () => emailCheck.markTaken(user.values.email) })}
      steps={[
        {
          id: 'user',
          title: t('customers.addUser.stepForm'),
          isValid: user.isValid && emailCheck.status !== 'taken',
          onNext: user.trySubmit,
          content: <UserFields form={user} emailCheck={emailCheck} autoFocus />,
        },
        {
          id: 'confirm',
          title: t('customers.addUser.stepConfirm'),
          isValid: user.isValid && emailCheck.status !== 'taken',
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
  );
}
