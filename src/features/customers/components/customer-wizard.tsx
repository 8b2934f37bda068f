import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../../i18n/i18n-context';
import { CreateWizard } from '../../../layout/create-wizard';
import { AddressFields } from '../../../ui/address-fields';
import { Button } from '../../../ui/button';
import { Checkbox } from '../../../ui/checkbox';
import { Select } from '../../../ui/select';
import { StatusBadge } from '../../../ui/status-badge';
import { TextField } from '../../../ui/text-field';
import { bindField, useForm } from '../../../ui/use-form';
import { createDashboardUserMutation, isCustomerIdFree } from '../api/customer-queries';
import {
  CUSTOMER_TYPES,
  buildCustomerPayload,
  companyRules,
  confirmEntries,
  emptyCompany,
  emptyUser,
  userRules,
  type CompanyValues,
  type UserValues,
} from '../customer-form';
import { Summary, UserFields, failureMessage } from './customer-fields';
import { useEmailCheck } from './use-email-check';

type IdCheck = { id: string; status: 'checking' | 'free' | 'taken' | 'failed' } | null;
type CompanyForm = ReturnType<typeof useForm<CompanyValues>>;

/**
 * 'Create customer' (spec 3 §2): company information → user information → confirm and 'Submit'.
 * The backdrop does not close it, closing resets it. The customer number is checked for
 * uniqueness ('validate', and again on Next), the e-mail when its field is left. Success: 'New user created'; the list reloads when
 * the wizard closes (`onClosed`).
 */
export function CustomerWizard({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [initialCompany] = useState(emptyCompany);
  const company = useForm<CompanyValues>(initialCompany, companyRules);
  const [initialUser] = useState(emptyUser);
  const user = useForm<UserValues>(initialUser, userRules);
  const idCheck = useCustomerIdCheck(company);
  const emailCheck = useEmailCheck(user);

  const reset = () => {
    company.reset();
    user.reset();
    idCheck.reset();
    emailCheck.reset();
  };

  const create = useMutation(createDashboardUserMutation());

  return (
    <CreateWizard
      isOpen={isOpen}
      onClose={onClose}
      onReset={reset}
      title={t('customers.wizard.title')}
      submitLabel={t('customers.wizard.submit')}
      send={() => create.mutateAsync(buildCustomerPayload(company.values, user.values))}
      isSending={create.isPending}
      successTitle={t('customers.wizard.successTitle')}
      successBody={() => (
        <div className="flex flex-col gap-2">
          <p className="font-medium">{t('customers.wizard.successThanks')}</p>
          <p>{t('customers.wizard.successText')}</p>
        </div>
      )}
      failure={(error) => failureMessage(t, error, { markTaken: () => emailCheck.markTaken(user.values.email) })}
      // A refusal keeps the wizard with what was entered (issue 23; spec 3 §2 cleared it), so the
      // user corrects the taken e-mail or number and sends again.
      steps={[
        {
          id: 'company',
          title: t('customers.wizard.stepCompany'),
          isValid: company.isValid && idCheck.status !== 'taken' && idCheck.status !== 'checking',
          onNext: async () => company.trySubmit() && (await idCheck.run()),
          content: <CompanyStep company={company} idCheck={idCheck} />,
        },
        {
          id: 'user',
          title: t('customers.wizard.stepUser'),
          isValid: user.isValid && emailCheck.status !== 'taken',
          onNext: user.trySubmit,
          content: <UserFields form={user} emailCheck={emailCheck} autoFocus />,
        },
        {
          id: 'confirm',
          title: t('customers.wizard.stepConfirm'),
          isValid: company.isValid && user.isValid && emailCheck.status !== 'taken',
          content: <Summary intro={t('customers.wizard.confirmHint')} entries={confirmEntries(t, company.values, user.values)} />,
        },
      ]}
    />
  );
}

/** Whether the typed customer number is free, as the server last answered for it. */
function useCustomerIdCheck(company: CompanyForm) {
  const [idCheck, setIdCheck] = useState<IdCheck>(null);
  const customerId = company.values.customerId.trim();
  const checkFor = idCheck?.id === customerId ? idCheck : null;

  /** Asks the server whether the number is free; answers whether Next may go on. */
  const run = async (): Promise<boolean> => {
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
  return { status: checkFor?.status ?? null, run, reset: () => setIdCheck(null) };
}

function CompanyStep({ company, idCheck }: { company: CompanyForm; idCheck: ReturnType<typeof useCustomerIdCheck> }) {
  const t = useT();
  const idError =
    idCheck.status === 'taken'
      ? t('customers.wizard.customerIdInUse')
      : idCheck.status === 'failed'
        ? t('customers.wizard.customerIdCheckFailed')
        : undefined;
  const customerIdField = bindField(t, company.field('customerId'));
  const typeItems = CUSTOMER_TYPES.map((type) => ({ id: type, label: t(`customers.customerType.${type}`) }));
  return (
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
              isDisabled={!!company.errors.customerId || idCheck.status === 'checking'}
              onPress={() => void idCheck.run()}
            >
              {t('customers.wizard.validate')}
            </Button>
            <span aria-live="polite">
              {idCheck.status === 'free' && <StatusBadge tone="success">{t('customers.wizard.customerIdFree')}</StatusBadge>}
              {idCheck.status === 'taken' && <StatusBadge tone="danger">{t('customers.wizard.customerIdTaken')}</StatusBadge>}
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
        <AddressFields field={(key) => bindField(t, company.field(key))} labels="customers.fields" />
      </div>
      <Checkbox
        isSelected={company.values.createManualEndCustomerId === 'true'}
        onChange={(on) => company.setValues((v) => ({ ...v, createManualEndCustomerId: on ? 'true' : 'false' }))}
      >
        {t('customers.fields.manualEndCustomerId')}
      </Checkbox>
    </div>
  );
}
