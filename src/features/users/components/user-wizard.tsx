import { useT } from '../../../i18n/i18n-context';
import { Wizard } from '../../../ui/wizard';
import { stepIsValid, type UserFormValues } from '../user-create-rules';
import { AuthStep } from './user-wizard-auth-step';
import { ConfirmStep } from './user-wizard-confirm-step';
import { useUserWizardForm, type UserWizardSource } from './user-wizard-form';
import { OtherStep } from './user-wizard-other-step';
import { TermsStep } from './user-wizard-terms-step';
import { UserStep } from './user-wizard-user-step';

export interface UserWizardProps extends UserWizardSource {
  onClose: () => void;
  onSubmit: (values: UserFormValues, pdfBase64: string | null) => Promise<void>;
}

/**
 * 'Nutzer anlegen' (spec 2 §2): user info, auth info, contract terms, other info, confirm. Next only
 * when the step's fields have no problem (`userFormIssues`: the contract's rules on the payload).
 * Each step is a file of its own; they share the form of `useUserWizardForm`.
 */
export function UserWizard({ isOpen, contract, initial, onClose, onSubmit }: UserWizardProps) {
  const t = useT();
  const form = useUserWizardForm({ isOpen, contract, initial });
  const steps = [
    { id: 'user', title: t('users.create.stepUser'), content: <UserStep form={form} /> },
    { id: 'auth', title: t('users.create.stepAuth'), content: <AuthStep form={form} /> },
    { id: 'terms', title: t('users.create.stepTerms'), content: <TermsStep form={form} /> },
    { id: 'other', title: t('users.create.stepOther'), content: <OtherStep form={form} /> },
  ];
  return (
    <Wizard
      isOpen={isOpen}
      onClose={onClose}
      title={contract ? t('users.edit.title') : t('users.create.title')}
      submitLabel={t('ui.common.save')}
      onSubmit={() => onSubmit(form.values, form.pdf.base64)}
      steps={[
        ...steps.map((s, index) => ({ ...s, isValid: stepIsValid(form.issues, index), onNext: () => form.touchStep(index) })),
        {
          id: 'confirm',
          title: t('users.create.stepConfirm'),
          isValid: [0, 1, 2, 3].every((i) => stepIsValid(form.issues, i)),
          content: <ConfirmStep form={form} />,
        },
      ]}
    />
  );
}
