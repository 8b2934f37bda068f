import { useT } from '../../../i18n/i18n-context';
import { sortParkingLots } from '../../../../contract/common';
import { MultiSelect } from '../../../ui/multi-select';
import { RadioGroup } from '../../../ui/radio-group';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { isAdminUserType, parkingLotsOf, usesRfid, withUserType } from '../user-create-rules';
import { enumItems, type UserWizardForm } from './user-wizard-form';

/** Step 2: the user type, the location and its parking lots (not for admin types), how the user authorises, RFID. */
export function AuthStep({ form }: { form: UserWizardForm }) {
  const t = useT();
  const { values, set, setValues, touch, bind, message } = form;
  const admin = isAdminUserType(values.userType);
  const locationRows = (form.locations.data ?? []).filter((l) => l.cpoId === values.cpoId);
  const knownItems = parkingLotsOf(locationRows.find((l) => l.locationId === values.locationId)).map((p) => ({ id: p, label: p }));
  // A chosen lot the location no longer has stays listed, marked, so the user can untick it.
  const lotItems = [...knownItems, ...form.unknownLots.map((p) => ({ id: p, label: t('dataRules.unknownLotItem', { lot: p }) }))];
  const userTypeItems = enumItems(
    t,
    form.isAdmin || form.contract?.userType === 'GLOBAL_ADMIN' ? ['REGULAR', 'LOCAL_ADMIN', 'GLOBAL_ADMIN'] : ['REGULAR', 'LOCAL_ADMIN'],
    'users.userTypes',
  );
  return (
    <div className="flex flex-col gap-4">
      <RadioGroup
        label={t('users.fields.userType')}
        orientation="horizontal"
        isRequired
        items={userTypeItems}
        value={values.userType}
        onChange={(v) => setValues((s) => withUserType(s, v))}
      />
      {!admin && (
        <div className="grid gap-4 md:grid-cols-2">
          <Select
            label={t('users.fields.location')}
            items={locationRows.map((l) => ({ id: l.locationId, label: l.locationIdName }))}
            value={values.locationId || null}
            onChange={(v) => {
              setValues((s) => ({ ...s, locationId: v ? String(v) : '', parkingLotNumbers: [] }));
              touch('locationId');
            }}
            errorMessage={message('locationId')}
            isRequired
            fullWidth
          />
          <MultiSelect
            label={t('users.fields.parkingLots')}
            items={lotItems}
            value={values.parkingLotNumbers}
            onChange={(v) => {
              set('parkingLotNumbers', sortParkingLots(v.map(String)));
              touch('parkingLotNumbers');
            }}
            isDisabled={!values.locationId}
            description={values.locationId && knownItems.length === 0 ? t('users.create.noParkingLots') : undefined}
            errorMessage={message('parkingLotNumbers')}
            isRequired
            fullWidth
          />
        </div>
      )}
      <RadioGroup
        label={t('users.fields.authType')}
        orientation="horizontal"
        isRequired
        items={enumItems(t, ['APP', 'RFID', 'APP_AND_RFID'], 'users.authTypes').map((i) => ({
          ...i,
          isDisabled: admin && i.id !== 'RFID',
        }))}
        value={values.authType}
        onChange={(v) => set('authType', v)}
        description={admin ? t('users.create.rfidForAdmins') : undefined}
      />
      {usesRfid(values) && (
        <>
          <RadioGroup
            label={t('users.create.rfidType')}
            orientation="horizontal"
            isRequired
            items={[
              { id: 'TAG', label: t('users.fields.rfidTags') },
              { id: 'SN', label: t('users.fields.rfidSerials') },
            ]}
            value={values.rfidType}
            onChange={(v) => set('rfidType', v)}
          />
          {values.rfidType === 'SN' ? (
            <TextField
              label={t('users.fields.rfidSerials')}
              isRequired
              fullWidth
              description={t('users.create.commaHint')}
              data-testid="create-rfidSerialId"
              {...bind('rfidSerialId')}
            />
          ) : (
            <TextField
              label={t('users.fields.rfidTags')}
              isRequired
              fullWidth
              description={t('users.create.commaHint')}
              data-testid="create-rfidTags"
              {...bind('rfidTags')}
            />
          )}
        </>
      )}
    </div>
  );
}
