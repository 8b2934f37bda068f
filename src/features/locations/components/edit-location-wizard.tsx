import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { LocationDetail } from '../../../../contract/locations';
import { isApiError, isNetworkError } from '../../../api/errors';
import { useT } from '../../../i18n/i18n-context';
import { AlertDialog } from '../../../ui/alert-dialog';
import { TextField } from '../../../ui/text-field';
import { bindField, useForm } from '../../../ui/use-form';
import { Wizard } from '../../../ui/wizard';
import { updateLocationMutation } from '../api/location-queries';
import { buildUpdatePayload, editRules, editValuesOf, type EditValues } from '../location-form';

type Outcome = 'saved' | 'conflict' | 'offline' | 'failed' | null;

/** 'Standort bearbeiten' (spec 2 §2): enter, confirm; the operator is shown but cannot change. */
export function EditLocationWizard({ location, isOpen, onClose }: { location: LocationDetail; isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [initial] = useState(() => editValuesOf(location));
  const form = useForm<EditValues>(initial, editRules);
  const [outcome, setOutcome] = useState<Outcome>(null);
  // The wizard stays mounted between uses: each opening starts from the location as loaded now.
  const [wasOpen, setWasOpen] = useState(isOpen);
  if (wasOpen !== isOpen) {
    setWasOpen(isOpen);
    if (isOpen) form.setValues(editValuesOf(location));
  }

  const update = useMutation({
    ...updateLocationMutation(),
    onSuccess: () => {
      onClose();
      setOutcome('saved');
    },
    onError: (error) =>
      setOutcome(isNetworkError(error) ? 'offline' : isApiError(error) && error.errorCodeResponse === 'CONFLICT' ? 'conflict' : 'failed'),
  });

  const fields: Array<[keyof EditValues, string, boolean]> = [
    ['locationName', t('locations.fields.locationName'), true],
    ['street', t('locations.fields.street'), true],
    ['careOf', t('locations.fields.careOf'), false],
    ['zipCode', t('locations.fields.zipCode'), true],
    ['city', t('locations.fields.city'), true],
  ];

  return (
    <>
      <Wizard
        isOpen={isOpen}
        onClose={onClose}
        onReset={form.reset}
        title={t('locations.edit.title')}
        submitLabel={t('ui.common.save')}
        isSubmitting={update.isPending}
        size="lg"
        onSubmit={() => update.mutateAsync(buildUpdatePayload(location, form.values))}
        steps={[
          {
            id: 'enter',
            title: t('locations.edit.stepEnter'),
            isValid: form.isValid,
            onNext: form.trySubmit,
            content: (
              <div className="grid gap-4 md:grid-cols-2">
                {fields.map(([key, label, isRequired], i) => (
                  <TextField
                    key={key}
                    label={label}
                    isRequired={isRequired}
                    autoFocus={i === 0}
                    type={key === 'zipCode' ? 'number' : 'text'}
                    fullWidth
                    {...bindField(t, form.field(key))}
                  />
                ))}
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
                  {fields.map(([key, label]) => (
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
      <AlertDialog isOpen={outcome === 'saved'} onClose={() => setOutcome(null)} variant="success" title={t('locations.edit.successTitle')}>
        <p>{t('locations.edit.successText')}</p>
      </AlertDialog>
      <AlertDialog
        isOpen={outcome !== null && outcome !== 'saved'}
        onClose={() => setOutcome(null)}
        variant="error"
        title={t('errors.title')}
      >
        <p>
          {outcome === 'conflict' ? t('locations.edit.conflict') : outcome === 'offline' ? t('errors.offline') : t('errors.somethingWrong')}
        </p>
      </AlertDialog>
    </>
  );
}
