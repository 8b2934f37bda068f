import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { LocationDetail } from '../../../../contract/locations';
import { isApiError } from '../../../api/errors';
import { useT } from '../../../i18n/i18n-context';
import { CreateWizard } from '../../../layout/create-wizard';
import { TextField } from '../../../ui/text-field';
import { bindField, useForm } from '../../../ui/use-form';
import { AddressFields } from '../../../ui/address-fields';
import { updateLocationMutation } from '../api/location-queries';
import { buildUpdatePayload, editRules, editValuesOf, type EditValues } from '../location-form';

/** 'Standort bearbeiten' (spec 2 §2): enter, confirm; the operator is shown but cannot change. */
export function EditLocationWizard({ location, isOpen, onClose }: { location: LocationDetail; isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [initial] = useState(() => editValuesOf(location));
  const form = useForm<EditValues>(initial, editRules);
  // The wizard stays mounted between uses: each opening starts from the location as loaded now.
  const [wasOpen, setWasOpen] = useState(isOpen);
  if (wasOpen !== isOpen) {
    setWasOpen(isOpen);
    if (isOpen) form.setValues(editValuesOf(location));
  }

  const update = useMutation(updateLocationMutation());

  const summary: Array<[keyof EditValues, string]> = [
    ['locationName', t('locations.fields.locationName')],
    ['street', t('locations.fields.street')],
    ['careOf', t('locations.fields.careOf')],
    ['zipCode', t('locations.fields.zipCode')],
    ['city', t('locations.fields.city')],
  ];

  return (
    <CreateWizard
      isOpen={isOpen}
      onClose={onClose}
      onReset={form.reset}
      title={t('locations.edit.title')}
      submitLabel={t('ui.common.save')}
      send={() => update.mutateAsync(buildUpdatePayload(location, form.values))}
      isSending={update.isPending}
      successTitle={t('locations.edit.successTitle')}
      successBody={() => <p>{t('locations.edit.successText')}</p>}
      failure={(error) => (isApiError(error) && error.errorCodeResponse === 'CONFLICT' ? t('locations.edit.conflict') : undefined)}
      size="lg"
      steps={[
        {
          id: 'enter',
          title: t('locations.edit.stepEnter'),
          isValid: form.isValid,
          onNext: form.trySubmit,
          content: (
            <div className="grid gap-4 md:grid-cols-2">
              <TextField
                label={t('locations.fields.locationName')}
                isRequired
                autoFocus
                fullWidth
                {...bindField(t, form.field('locationName'))}
              />
              <AddressFields field={(key) => bindField(t, form.field(key))} labels="locations.fields" />
              <TextField label={t('locations.fields.operatorId')} value={location.operatorDetail.cpoId} isDisabled fullWidth />
            </div>
          ),
        },
        {
          id: 'confirm',
          title: t('locations.edit.stepConfirm'),
          isValid: form.isValid,
          content: (
            <div className="flex flex-col gap-3">
              <p className="text-muted">{t('locations.edit.confirmHint')}</p>
              <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
                {summary.map(([key, label]) => (
                  <div key={key} className="contents">
                    <dt className="font-medium text-muted">{label}</dt>
                    <dd className="text-fg">{form.values[key].trim() || '–'}</dd>
                  </div>
                ))}
                <div className="contents">
                  <dt className="font-medium text-muted">{t('locations.fields.operatorId')}</dt>
                  <dd className="text-fg">{location.operatorDetail.cpoId}</dd>
                </div>
              </dl>
            </div>
          ),
        },
      ]}
    />
  );
}
