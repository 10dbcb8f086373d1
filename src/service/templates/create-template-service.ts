/** The stored templates' part of the facade: each method hands its call to its use case. */
import type { ServiceDeps } from '../service-deps.js';
import { templateByReference, uploadTemplateFromUrl } from './template-references.js';
import { deleteTemplate, downloadTemplate, getTemplate, listTemplates } from './template-queries.js';
import type { TemplateService } from '../template-service.js';
import { uploadTemplate } from './upload-template.js';

export function createTemplateService(deps: ServiceDeps): TemplateService {
  return {
    upload: (account, upload) => uploadTemplate(deps, account, upload),
    list: (account) => listTemplates(deps, account),
    get: (account, id) => getTemplate(deps, account, id),
    find: (account, reference) => templateByReference(deps, account, reference),
    uploadFromUrl: (account, upload) => uploadTemplateFromUrl(deps, account, upload),
    download: (account, id) => downloadTemplate(deps, account, id),
    delete: (account, id) => deleteTemplate(deps, account, id),
  };
}
