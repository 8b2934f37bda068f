import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { DropZone } from 'react-aria-components/DropZone';
import { FileTrigger } from 'react-aria-components/FileTrigger';
import type { StationImportAnswer } from '../../../../contract/station-import';
import { useT } from '../../../i18n/i18n-context';
import { useOnlineStatus } from '../../../offline/online-status';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { saveFile } from '../../../api/save-file';
import { fetchImportTemplate, importVariables, stationImportMutation } from '../api/station-import-queries';
import { fileErrorMessage, mistakesOf } from './import-messages';
import { ImportMistakes, ImportPreview, ImportProgress } from './import-tables';

export interface StationImportDialogProps {
  isOpen: boolean;
  onClose: () => void;
}

const ACCEPT = [
  '.csv',
  '.xlsx',
  '.xls',
  'text/csv',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
];

/**
 * 'Anlegen per CSV/Excel-Upload' (spec 2 §2): pick or drop a file, check it (a dry run: what would
 * be created, or every mistake with row and column), then import it; the success lists the new
 * station ids and the station lists refresh (the write's `refreshes`).
 */
export function StationImportDialog({ isOpen, onClose }: StationImportDialogProps) {
  const t = useT();
  const online = useOnlineStatus();
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState(0);
  const check = useMutation(stationImportMutation());
  const write = useMutation(stationImportMutation());
  const preview = check.data;
  const done = write.data;
  const busy = check.isPending || write.isPending;

  const choose = (files: FileList | File[] | null) => {
    const picked = files ? Array.from(files)[0] : undefined;
    if (!picked) return;
    setFile(picked);
    check.reset();
    write.reset();
  };
  const startOver = () => {
    setFile(null);
    check.reset();
    write.reset();
  };
  const mistakes = mistakesOf(check.error) ?? mistakesOf(write.error);
  const failure = check.error ?? write.error;

  let body;
  let actions;
  if (done) {
    body = <ImportSuccess answer={done} />;
    actions = <Button onPress={onClose}>{t('ui.common.close')}</Button>;
  } else if (mistakes) {
    body = <ImportMistakes mistakes={mistakes} fileName={file?.name ?? ''} />;
    actions = (
      <Button variant="secondary" onPress={startOver}>
        {t('stations.import.otherFile')}
      </Button>
    );
  } else if (preview) {
    body = <ImportPreview answer={preview} fileName={file?.name ?? ''} />;
    actions = (
      <>
        <Button variant="secondary" onPress={startOver} isDisabled={busy}>
          {t('stations.import.otherFile')}
        </Button>
        <Button
          onPress={() => file && (setSent(0), write.mutate(importVariables(file, false, setSent)))}
          isPending={write.isPending}
          isDisabled={!online}
        >
          {t('stations.import.import', { count: preview.stationCount })}
        </Button>
      </>
    );
  } else {
    body = <PickFile file={file} onChoose={choose} isDisabled={busy} />;
    actions = (
      <>
        <Button variant="secondary" onPress={onClose}>
          {t('ui.common.cancel')}
        </Button>
        <Button
          onPress={() => file && (setSent(0), check.mutate(importVariables(file, true, setSent)))}
          isPending={check.isPending}
          isDisabled={!file || !online}
        >
          {t('stations.import.check')}
        </Button>
      </>
    );
  }

  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={(open) => !open && onClose()}
      title={done ? t('stations.import.successTitle') : t('stations.import.title')}
      isDismissable={!busy}
      size="lg"
      actions={actions}
    >
      <div className="flex flex-col gap-4">
        {!online && !done && (
          <p role="status" className="rounded-md border border-warning bg-warning-soft p-3 text-sm">
            {t('stations.import.needsNetwork')}
          </p>
        )}
        {busy && <ImportProgress sent={sent} writing={write.isPending} />}
        {failure && !mistakes && !busy && (
          <p role="alert" className="rounded-md border border-danger bg-danger-soft p-3 text-sm text-danger">
            {fileErrorMessage(t, failure)}
          </p>
        )}
        {body}
      </div>
    </Dialog>
  );
}

function PickFile({
  file,
  onChoose,
  isDisabled,
}: {
  file: File | null;
  onChoose: (files: FileList | File[] | null) => void;
  isDisabled: boolean;
}) {
  const t = useT();
  const [templateFailed, setTemplateFailed] = useState(false);
  const download = async (format: 'csv' | 'xlsx') => {
    setTemplateFailed(false);
    try {
      const { blob, filename } = await fetchImportTemplate(format);
      saveFile(blob, filename);
    } catch {
      setTemplateFailed(true);
    }
  };
  const dropped = async (items: { kind: string }[]) => {
    const files = await Promise.all(
      items.filter((i) => i.kind === 'file').map((i) => (i as unknown as { getFile: () => Promise<File> }).getFile()),
    );
    onChoose(files);
  };
  return (
    <>
      <p className="text-sm">{t('stations.import.intro')}</p>
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-sm font-medium">{t('stations.import.templates')}</span>
        <Button variant="secondary" size="sm" onPress={() => void download('xlsx')}>
          {t('stations.import.templateXlsx')}
        </Button>
        <Button variant="secondary" size="sm" onPress={() => void download('csv')}>
          {t('stations.import.templateCsv')}
        </Button>
      </div>
      {templateFailed && (
        <p role="alert" className="text-sm text-danger">
          {t('stations.import.templateFailed')}
        </p>
      )}
      <DropZone
        isDisabled={isDisabled}
        onDrop={(e) => void dropped(e.items)}
        aria-label={t('stations.import.dropLabel')}
        className="flex min-h-36 flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed border-border p-5 text-center data-[drop-target]:border-primary data-[drop-target]:bg-primary-soft"
      >
        <span className="text-sm text-muted">{t('stations.import.drop')}</span>
        <FileTrigger acceptedFileTypes={ACCEPT} onSelect={onChoose}>
          <Button variant="secondary" isDisabled={isDisabled}>
            {t('stations.import.choose')}
          </Button>
        </FileTrigger>
        {file && (
          <span className="text-sm font-medium" data-testid="import-file">
            {t('stations.import.chosen', { name: file.name })}
          </span>
        )}
      </DropZone>
      <p className="text-sm text-muted">{t('stations.import.formats')}</p>
    </>
  );
}

function ImportSuccess({ answer }: { answer: StationImportAnswer }) {
  const t = useT();
  const ids = answer.locations.flatMap((l) => l.stations.map((s) => s.cpId));
  return (
    <>
      <p>{t('stations.import.successText', { stations: answer.stationCount, connectors: answer.connectorCount })}</p>
      <h3 className="text-sm font-semibold">{t('stations.import.newIds')}</h3>
      <ul className="flex max-h-64 flex-wrap gap-2 overflow-y-auto" data-testid="import-new-ids">
        {ids.map((id) => (
          <li key={id} className="rounded-full bg-surface-2 px-3 py-1 font-mono text-sm">
            {id}
          </li>
        ))}
      </ul>
    </>
  );
}
