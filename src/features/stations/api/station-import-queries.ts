import { IMPORT_TEMPLATE_FILE_NAME, stationImportAnswerSchema } from '../../../../contract/station-import';
import { apiRequest } from '../../../api/client';
import { getRuntimeConfig } from '../../../api/config';
import { plainWrite } from '../../../api/mutations';
import { cockpitKeys } from '../../cockpit/api/cockpit-keys';
import { locationKeys } from '../../locations/api/location-keys';
import { stationKeys } from './station-keys';

/** What one press of 'check' or 'import' sends: the file, and its name, size and date so two files never look like one press. */
export interface StationImportVariables {
  file: File;
  name: string;
  size: number;
  lastModified: number;
  dryRun: boolean;
  /** How much of the file was sent (0…1), for the dialog's progress bar. */
  onProgress?: (fraction: number) => void;
}

export const importVariables = (file: File, dryRun: boolean, onProgress?: (fraction: number) => void): StationImportVariables => ({
  file,
  name: file.name,
  size: file.size,
  lastModified: file.lastModified,
  dryRun,
  onProgress,
});

/**
 * POST /bff/connectors/upload (README beside server/src/stations/import): a dry run answers what
 * would be created, the real one creates it; the separator is the runtime configuration's.
 */
export const stationImportMutation = () =>
  plainWrite({
    mutationKey: [...stationKeys.all, 'import'],
    request: (v: StationImportVariables) => {
      const form = new FormData();
      form.set('file', v.file, v.name);
      return {
        service: 'bff' as const,
        path: '/connectors/upload',
        method: 'POST' as const,
        query: { csvSeparator: getRuntimeConfig().csvSeparator, dryRun: v.dryRun },
        body: form,
        onUploadProgress: v.onProgress,
        // The dialog shows the upload's own progress; the app's overlay would cover it.
        background: true,
      };
    },
    schema: stationImportAnswerSchema,
    refreshes: (v) => (v.dryRun ? [] : [stationKeys.lists(), locationKeys.all, cockpitKeys.graphs()]),
  });

/** The empty template (CSV with the configured separator, or XLSX), as a file for the browser to save. */
export async function fetchImportTemplate(format: 'csv' | 'xlsx'): Promise<{ blob: Blob; filename: string }> {
  const result = await apiRequest({ service: 'bff', path: '/connectors/upload/template', query: { format }, responseType: 'blob' });
  return { blob: result.blob, filename: result.filename ?? `${IMPORT_TEMPLATE_FILE_NAME}.${format}` };
}
