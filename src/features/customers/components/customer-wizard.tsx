import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../../i18n/i18n-context';
import { AlertDialog } from '../../../ui/alert-dialog';
import { Button } from '../../../ui/button';
import { Checkbox } from '../../../ui/checkbox';
import { Select } from '../../../ui/select';
import { StatusBadge } from '../../../ui/status-badge';
import { TextField } from '../../../ui/text-field';
import { bindField, useForm } from '../../../ui/use-form';
import { Wizard } from '../../../ui/wizard';
import { createDashboardUserMutation, isCustomerIdFree } from '../api/customer-queries';
import {
  CUSTOMER_TYPES,
  buildCustomerPayload,
  companyRules,
  confirmEntries,
  createFailure,
  emptyCompany,
  emptyUser,
  userRules,
  type CompanyValues,
  type CreateFailure,
  type UserValues,
} from '../customer-form';
import { Summary, UserFields } from './customer-fields';

type IdCheck = { id: string; status: 'checking' | 'free' | 'taken' | 'failed' } | null;
type Outcome = { kind: 'created' } | { kind: 'failed'; failure: CreateFailure } | null;

/**
 * 'Create customer' (spec 3 §2): company information → user information → confirm and 'Submit'.
 * The backdrop does not close it, closing resets it. The customer number is checked for
 * uniqueness ('validate', and again on Next). Success: 'New user created'; the customer lists and
 * selects reload (createDashboardUserMutation).
 */
export function CustomerWizard({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [initialCompany] = useState(emptyCompany);
  const company = useForm<CompanyValues>(initialCompany, companyRules);
  const [initialUser] = useState(emptyUser);
  const user = useForm<UserValues>(initialUser, userRules);
  const [idCheck, setIdCheck] = useState<IdCheck>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const reset = () => {
    company.reset();
    user.reset();
    setIdCheck(null);
  };

  const customerId = company.values.customerId.trim();
  const checkFor = idCheck?.id === customerId ? idCheck : null;

  /** Asks the server whether the number is free; answers whether Next may go on. */
  const checkId = async (): Promise<boolean> => {
    if (company.errors.customerId) return false;
    if (checkFor?.status === 'free') return true;
    setIdCheck({ id: customerId, status: 'checking' });
    try {
      const free = await isCustomerIdFree(customerId);
      setIdCheck({ id: customerId, status: free ? 'free' : 'taken' });
      return free;
    } catch {
      setIdCheck({ id: customerId, status: 'failed' });
      return false;
    }
  };

  const create = useMutation({
    ...createDashboardUserMutation(),
    onSuccess: () => {
      onClose();
      setOutcome({ kind: 'created' });
    },
    onError: (error) => {
      const failure = createFailure(error);
      // The wizard's state is cleared after an error dialog is closed (spec 3 §2), except for a
      // lost connection, where sending the same wizard again is the way on.
      if (failure !== 'offline') onClose();
      setOutcome({ kind: 'failed', failure });
    },
  });

  const idError =
    checkFor?.status === 'taken'
      ? t('customers.wizard.customerIdInUse')
      : checkFor?.status === 'failed'
        ? t('customers.wizard.customerIdCheckFailed')
        : undefined;
  const customerIdField = bindField(t, company.field('customerId'));
  const typeItems = CUSTOMER_TYPES.map((type) => ({ id: type, label: t(`customers.customerType.${type}`) }));

  return (
    <>
      <Wizard
        isOpen={isOpen}
        onClose={onClose}
        onReset={reset}
        title={t('customers.wizard.title')}
        submitLabel={t('customers.wizard.submit')}
        isSubmitting={create.isPending}
        onSubmit={() => create.mutateAsync(buildCustomerPayload(company.values, user.values)).catch(() => undefined)}
        steps={[
          {
            id: 'company',
            title: t('customers.wizard.stepCompany'),
            isValid: company.isValid && checkFor?.status !== 'taken' && checkFor?.status !== 'checking',
            onNext: async () => company.trySubmit() && (await checkId()),
            content: (
              <div className="flex flex-col gap-4">
                <div className="grid gap-4 md:grid-cols-2">
                  <div className="flex flex-col gap-2">
                    <TextField
                      label={t('customers.fields.customerId')}
                      description={t('customers.wizard.customerIdHint')}
                      isRequired
                      fullWidth
                      autoFocus
                      autoComplete="off"
                      {...customerIdField}
                      errorMessage={customerIdField.errorMessage ?? idError}
                    />
                    <div className="flex flex-wrap items-center gap-2">
                      <Button
                        variant="secondary"
                        size="sm"
                        isDisabled={!!company.errors.customerId || checkFor?.status === 'checking'}
                        onPress={() => void checkId()}
                      >
                        {t('customers.wizard.validate')}
                      </Button>
                      <span aria-live="polite">
                        {checkFor?.status === 'free' && <StatusBadge tone="success">{t('customers.wizard.customerIdFree')}</StatusBadge>}
                        {checkFor?.status === 'taken' && <StatusBadge tone="danger">{t('customers.wizard.customerIdTaken')}</StatusBadge>}
                      </span>
                    </div>
                  </div>
                  <Select
                    label={t('customers.fields.customerType')}
                    items={typeItems}
                    value={company.values.customerType || null}
                    onChange={(value) => company.setValues((v) => ({ ...v, customerType: value === null ? '' : String(value) }))}
                    isRequired
                    fullWidth
                  />
                  <TextField
                    label={t('customers.fields.companyName')}
                    isRequired
                    fullWidth
                    autoComplete="off"
                    {...bindField(t, company.field('companyName'))}
                  />
                  <TextField label={t('customers.fields.careOf')} fullWidth autoComplete="off" {...bindField(t, company.field('careOf'))} />
                  <TextField
                    label={t('customers.fields.street')}
                    isRequired
                    fullWidth
                    autoComplete="off"
                    {...bindField(t, company.field('street'))}
                  />
                  <TextField
                    label={t('customers.fields.zipCode')}
                    isRequired
                    fullWidth
                    inputMode="numeric"
                    autoComplete="off"
                    {...bindField(t, company.field('zipCode'))}
                  />
                  <TextField
                    label={t('customers.fields.city')}
                    isRequired
                    fullWidth
                    autoComplete="off"
                    {...bindField(t, company.field('city'))}
                  />
                </div>
                <Checkbox
                  isSelected={company.values.createManualEndCustomerId === 'true'}
                  onChange={(on) => company.setValues((v) => ({ ...v, createManualEndCustomerId: on ? 'true' : 'false' }))}
                >
                  {t('customers.fields.manualEndCustomerId')}
                </Checkbox>
              </div>
            ),
          },
          {
            id: 'user',
            title: t('customers.wizard.stepUser'),
            isValid: user.isValid,
            onNext: user.trySubmit,
            content: <UserFields form={user} autoFocus />,
          },
          {
            id: 'confirm',
            title: t('customers.wizard.stepConfirm'),
            isValid: company.isValid && user.isValid,
            content: <Summary intro={t('customers.wizard.confirmHint')} entries={confirmEntries(t, company.values, user.values)} />,
          },
        ]}
      />
      <AlertDialog
        isOpen={outcome?.kind === 'created'}
        onClose={() => setOutcome(null)}
        variant="success"
        title={t('customers.wizard.successTitle')}
      >
        <div className="flex flex-col gap-2">
          <p className="font-medium">{t('customers.wizard.successThanks')}</p>
          <p>{t('customers.wizard.successText')}</p>
        </div>
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
