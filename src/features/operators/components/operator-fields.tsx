import type { ReactNode } from 'react';
import { useT, type TranslateFn } from '../../../i18n/i18n-context';
import { Button } from '../../../ui/button';
import { Checkbox, CheckboxGroup } from '../../../ui/checkbox';
import { MinusIcon } from '../../../ui/icons';
import { RadioGroup } from '../../../ui/radio-group';
import { AddressFields } from '../../../ui/address-fields';
import { TextField } from '../../../ui/text-field';
import { bindField, type useForm } from '../../../ui/use-form';
import { methodMessageId } from '../api/operator-queries';
import {
  MAX_TEMPLATE_LINES,
  addLine,
  footerField,
  headerField,
  isBillingRequiredMissing,
  paymentModesOf,
  removeLine,
  type BillingValues,
} from '../operator-billing-form';
import { type AddressValues } from '../operator-form';
import { flag } from '../operator-rules';

/** The form sections the creation wizard and the edit dialogs share, and their confirm summaries. */

type Form<V extends Record<string, string>> = ReturnType<typeof useForm<V>>;
type FieldBinding = Parameters<typeof bindField>[1];

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="flex min-w-0 flex-col gap-4 border-t border-border pt-4 first:border-t-0 first:pt-0">
      <legend className="float-left mb-1 w-full text-base font-semibold text-fg">{title}</legend>
      {children}
    </fieldset>
  );
}

/** Name and address (the wizard's step 1, the AddressInfo edit). */
export function NameAndAddressFields({ field, autoFocus }: { field: (key: keyof AddressValues) => FieldBinding; autoFocus?: boolean }) {
  const t = useT();
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <TextField
        label={t('operators.fields.cpoName')}
        isRequired
        fullWidth
        autoFocus={autoFocus}
        autoComplete="organization"
        {...bindField(t, field('cpoName'))}
      />
      <AddressFields field={(key) => bindField(t, field(key))} labels="operators.fields" />
    </div>
  );
}

/**
 * The invoice template (the wizard's step 2, the BillingInfo edit): contact person, the 'with/no
 * billing info' choice where it is offered, payment modes with their fields, days until payment,
 * header and footer lines with plus/minus, and the charging-history flag.
 */
export function BillingFields({ form, offersChoice }: { form: Form<BillingValues>; offersChoice: boolean }) {
  const t = useT();
  const v = form.values;
  const set = (patch: Partial<BillingValues>) => form.setValues((current) => ({ ...current, ...patch }));
  const withBilling = v.withBillingInfo === 'true';
  const missingMode = isBillingRequiredMissing(v);
  return (
    <div className="flex flex-col gap-6">
      <Section title={t('operators.detail.contact')}>
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            label={t('operators.fields.contactPersonName')}
            isRequired
            fullWidth
            autoComplete="name"
            {...bindField(t, form.field('contactPersonName'))}
          />
          <TextField
            label={t('operators.fields.contactPersonPosition')}
            isRequired
            fullWidth
            autoComplete="organization-title"
            {...bindField(t, form.field('contactPersonPosition'))}
          />
          <TextField
            label={t('operators.fields.contactPersonPhone')}
            type="tel"
            inputMode="numeric"
            isRequired
            fullWidth
            autoComplete="tel"
            {...bindField(t, form.field('contactPersonPhone'))}
          />
          <TextField
            label={t('operators.fields.contactPersonEmail')}
            type="email"
            isRequired
            fullWidth
            autoComplete="email"
            {...bindField(t, form.field('contactPersonEmail'))}
          />
        </div>
      </Section>
      {offersChoice && (
        <RadioGroup
          label={t('operators.billing.choice')}
          orientation="horizontal"
          value={v.withBillingInfo}
          onChange={(value) => set({ withBillingInfo: value === 'true' ? 'true' : 'false' })}
          items={[
            { id: 'true', label: t('operators.billing.with') },
            { id: 'false', label: t('operators.billing.without') },
          ]}
        />
      )}
      {withBilling ? (
        <>
          <Section title={t('operators.detail.payment')}>
            <CheckboxGroup
              label={t('operators.fields.paymentModes')}
              isRequired
              value={paymentModesOf(v)}
              onChange={(modes) => set({ sepa: flag(modes.includes('SEPA')), bankTransfer: flag(modes.includes('BANK_TRANSFER')) })}
              errorMessage={missingMode ? t('operators.billing.required') : undefined}
            >
              <Checkbox value="SEPA">{t(methodMessageId('SEPA'))}</Checkbox>
              <Checkbox value="BANK_TRANSFER">{t(methodMessageId('BANK_TRANSFER'))}</Checkbox>
            </CheckboxGroup>
            <div className="grid gap-4 md:grid-cols-2">
              <TextField
                label={t('operators.billing.daysLabel')}
                type="number"
                isRequired
                fullWidth
                description={t('operators.billing.daysHint')}
                {...bindField(t, form.field('moneyCollectionGapInDays'))}
              />
              {v.sepa === 'true' && (
                <TextField
                  label={t('operators.fields.creditorId')}
                  isRequired
                  fullWidth
                  autoComplete="off"
                  description={t('operators.billing.creditorIdHint')}
                  {...bindField(t, form.field('creditorId'))}
                />
              )}
              {v.bankTransfer === 'true' && (
                <>
                  <TextField
                    label={t('operators.fields.cpoIban')}
                    isRequired
                    fullWidth
                    autoComplete="off"
                    {...bindField(t, form.field('cpoIban'))}
                  />
                  <TextField
                    label={t('operators.fields.cpoBic')}
                    isRequired
                    fullWidth
                    autoComplete="off"
                    {...bindField(t, form.field('cpoBic'))}
                  />
                  <TextField label={t('operators.fields.cpoBankName')} isRequired fullWidth {...bindField(t, form.field('cpoBankName'))} />
                </>
              )}
            </div>
          </Section>
          <Section title={t('operators.detail.tax')}>
            <p className="text-muted">{t('operators.billing.taxHint')}</p>
            <div className="grid gap-4 md:grid-cols-2">
              <TextField label={t('operators.fields.vatId')} fullWidth autoComplete="off" {...bindField(t, form.field('vatId'))} />
              <TextField label={t('operators.fields.taxNumber')} fullWidth autoComplete="off" {...bindField(t, form.field('taxNumber'))} />
              <TextField
                label={t('operators.fields.billNumberPrefix')}
                fullWidth
                autoComplete="off"
                description={t('operators.billing.billNumberPrefixHint')}
                {...bindField(t, form.field('billNumberPrefix'))}
              />
            </div>
          </Section>
          <TemplateLines form={form} kind="header" />
          <TemplateLines form={form} kind="footer" />
          <Checkbox isSelected={v.isChargingHistoryIncluded === 'true'} onChange={(on) => set({ isChargingHistoryIncluded: flag(on) })}>
            {t('operators.billing.proof')}
          </Checkbox>
        </>
      ) : (
        <p className="text-muted">{t('operators.billing.withoutHint')}</p>
      )}
    </div>
  );
}

/** Header or footer lines 1..4; each shown header line is required, footers are optional. */
function TemplateLines({ form, kind }: { form: Form<BillingValues>; kind: 'header' | 'footer' }) {
  const t = useT();
  const v = form.values;
  const shown = Number(kind === 'header' ? v.headerCount : v.footerCount);
  const field = kind === 'header' ? headerField : footerField;
  const header = kind === 'header';
  return (
    <Section title={t(kind === 'header' ? 'operators.detail.headers' : 'operators.detail.footers')}>
      <div className="flex flex-col gap-3">
        {Array.from({ length: shown }, (_, i) => (
          <TextField
            key={i}
            label={t(header ? 'operators.billing.headerLine' : 'operators.billing.footerLine', { n: i + 1 })}
            isRequired={kind === 'header'}
            fullWidth
            {...bindField(t, form.field(field(i + 1)))}
          />
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          onPress={() => form.setValues((c) => addLine(c, kind))}
          isDisabled={shown >= MAX_TEMPLATE_LINES}
        >
          <span aria-hidden="true" className="text-lg leading-none">
            +
          </span>
          {t(header ? 'operators.billing.addHeaderLine' : 'operators.billing.addFooterLine')}
        </Button>
        <Button variant="ghost" size="sm" onPress={() => form.setValues((c) => removeLine(c, kind))} isDisabled={shown <= 1}>
          <MinusIcon size={16} aria-hidden="true" />
          {t(header ? 'operators.billing.removeHeaderLine' : 'operators.billing.removeFooterLine', { n: shown })}
        </Button>
      </div>
    </Section>
  );
}

// ---- confirm summaries ------------------------------------------------------------------------------

export type Entry = [string, ReactNode];

export function Summary({ intro, groups }: { intro: string; groups: Array<{ title?: string; entries: Entry[] }> }) {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted">{intro}</p>
      {groups.map((g, gi) => (
        <div key={g.title ?? gi} className="flex flex-col gap-2">
          {g.title && <h4 className="font-semibold text-fg">{g.title}</h4>}
          {/* One label width for every group, so the values line up down the whole summary. */}
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
            {g.entries.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="font-medium text-muted">{label}</dt>
                <dd className="min-w-0 break-words text-fg">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </div>
  );
}

const orDash = (value: string) => value.trim() || '–';

export function addressEntries(t: TranslateFn, v: AddressValues): Entry[] {
  return [
    [t('operators.fields.cpoName'), orDash(v.cpoName)],
    [t('operators.fields.street'), orDash(v.street)],
    [t('operators.fields.careOf'), orDash(v.careOf)],
    [t('operators.fields.zipCode'), orDash(v.zipCode)],
    [t('operators.fields.city'), orDash(v.city)],
  ];
}

export function billingGroups(t: TranslateFn, v: BillingValues): Array<{ title: string; entries: Entry[] }> {
  const contact: Entry[] = [
    [t('operators.fields.contactPersonName'), orDash(v.contactPersonName)],
    [t('operators.fields.contactPersonPosition'), orDash(v.contactPersonPosition)],
    [t('operators.fields.contactPersonPhone'), orDash(v.contactPersonPhone)],
    [t('operators.fields.contactPersonEmail'), orDash(v.contactPersonEmail)],
  ];
  if (v.withBillingInfo !== 'true') {
    return [
      { title: t('operators.detail.contact'), entries: contact },
      { title: t('operators.billing.choice'), entries: [[t('operators.billing.choice'), t('operators.billing.without')]] },
    ];
  }
  const modes = paymentModesOf(v);
  const days = Number(v.moneyCollectionGapInDays);
  const payment: Entry[] = [
    [t('operators.fields.paymentModes'), modes.map((m) => t(methodMessageId(m))).join(', ') || '–'],
    [
      t('operators.billing.daysLabel'),
      Number.isInteger(days) ? t('operators.detail.days', { count: days }) : orDash(v.moneyCollectionGapInDays),
    ],
  ];
  if (modes.includes('SEPA')) payment.push([t('operators.fields.creditorId'), orDash(v.creditorId)]);
  if (modes.includes('BANK_TRANSFER')) {
    payment.push(
      [t('operators.fields.cpoIban'), orDash(v.cpoIban)],
      [t('operators.fields.cpoBic'), orDash(v.cpoBic)],
      [t('operators.fields.cpoBankName'), orDash(v.cpoBankName)],
    );
  }
  const lines = (kind: 'header' | 'footer'): Entry[] =>
    Array.from({ length: Number(kind === 'header' ? v.headerCount : v.footerCount) }, (_, i) => [
      t('operators.fields.lineN', { n: i + 1 }),
      orDash(v[(kind === 'header' ? headerField : footerField)(i + 1)]),
    ]);
  return [
    { title: t('operators.detail.contact'), entries: contact },
    { title: t('operators.detail.payment'), entries: payment },
    {
      title: t('operators.detail.tax'),
      entries: [
        [t('operators.fields.vatId'), orDash(v.vatId)],
        [t('operators.fields.taxNumber'), orDash(v.taxNumber)],
        [t('operators.fields.billNumberPrefix'), orDash(v.billNumberPrefix)],
      ],
    },
    { title: t('operators.detail.headers'), entries: lines('header') },
    { title: t('operators.detail.footers'), entries: lines('footer') },
    {
      title: t('operators.detail.proof'),
      entries: [[t('operators.billing.proof'), v.isChargingHistoryIncluded === 'true' ? t('operators.yes') : t('operators.no')]],
    },
  ];
}
