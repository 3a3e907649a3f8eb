/**
 * Message settings: communication parameters and native ad templates (schemas/messageSettings.ts).
 *
 * Who may change them: `ui:app.edit`, the app-settings key. Both are settings of the app that
 * every message of it depends on (a parameter's choices are what submit checks each message
 * against; the default template is what every native ad falls back to), not content of one
 * message, so `ui:message.create` (which Authors hold) would let a draft's author redefine what
 * the whole team's messages are validated against. `ui:app.edit` is held by Client, Admin,
 * Manager, Client P. manager and Agency, and not by Author, Analyst or Provider, who read them
 * (permissions/roles.ts). Reading needs the screen's route key; the platform's templates are
 * changed only by platform administrators (`route:/admin/native-templates`, Super admin only).
 */
import { z } from 'zod';
import { CommunicationParameterInput, CommunicationParameterRecord, NativeTemplate, NativeTemplateInput } from '../schemas/messageSettings.ts';
import { ep, none } from './define.ts';

const PARAMETERS = 'route:/manage/communication-parameters';
const TEMPLATES = 'route:/manage/native-templates';
const PLATFORM = 'route:/admin/native-templates';
const CHANGE = 'ui:app.edit';
/** Whoever sees messages of the app, or its templates screen, may list the templates a native ad can pick. */
const CHOOSE = { or: ['ui:message.view', 'ui:message.view:owner', 'ui:message.read', TEMPLATES] } as const;
/** Who reads the parameters: their screen, and whoever sees messages (the editor picks them and checks placeholders against them). */
const READ_PARAMETERS = { or: ['ui:message.view', 'ui:message.view:owner', 'ui:message.read', PARAMETERS] } as const;

export const messageSettingsEndpoints = {
  listCommunicationParameters: ep({ method: 'GET', path: '/apps/:appId/communication-parameters', summary: 'Communication parameters of an app (what messages may set and use as {{communicationParameter__name}})', auth: READ_PARAMETERS, response: { parameters: z.array(CommunicationParameterRecord) } }),
  createCommunicationParameter: ep({ method: 'POST', path: '/apps/:appId/communication-parameters', summary: 'Create a parameter (name unique per app: 30). Changing parameters needs ui:app.edit, the app-settings key: they define what every message of the app is checked against, so Authors (ui:message.create) may not', auth: { and: [PARAMETERS, CHANGE] }, request: CommunicationParameterInput, response: { parameter: CommunicationParameterRecord } }),
  updateCommunicationParameter: ep({ method: 'PUT', path: '/apps/:appId/communication-parameters/:parameterId', summary: 'Rename a parameter, or change its label, type or values (ui:app.edit, see createCommunicationParameter)', auth: { and: [PARAMETERS, CHANGE] }, request: CommunicationParameterInput, response: { parameter: CommunicationParameterRecord } }),
  deleteCommunicationParameter: ep({ method: 'DELETE', path: '/apps/:appId/communication-parameters/:parameterId', summary: 'Delete a parameter; messages that still use it are refused at submit until changed (ui:app.edit)', auth: { and: [PARAMETERS, CHANGE] }, response: none }),

  listNativeTemplates: ep({ method: 'GET', path: '/apps/:appId/native-templates', summary: "The app's own native ad templates", auth: TEMPLATES, response: { templates: z.array(NativeTemplate) } }),
  listNativeTemplateChoices: ep({ method: 'GET', path: '/apps/:appId/native-template-choices', summary: "Every template a native ad of the app may use (the app's, then the platform's) and the one it uses by default", auth: CHOOSE, response: { templates: z.array(NativeTemplate), defaultId: z.string().nullable() } }),
  createNativeTemplate: ep({ method: 'POST', path: '/apps/:appId/native-templates', summary: 'Create a template of the app (name taken: 32; the first one becomes the default). Needs ui:app.edit, the app-settings key', auth: { and: [TEMPLATES, CHANGE] }, request: NativeTemplateInput, response: { template: NativeTemplate } }),
  updateNativeTemplate: ep({ method: 'PUT', path: '/apps/:appId/native-templates/:templateId', summary: 'Change a template of the app, or make it the default (unsetting the default: 33)', auth: { and: [TEMPLATES, CHANGE] }, request: NativeTemplateInput, response: { template: NativeTemplate } }),
  deleteNativeTemplate: ep({ method: 'DELETE', path: '/apps/:appId/native-templates/:templateId', summary: 'Delete a template of the app (the default: 33)', auth: { and: [TEMPLATES, CHANGE] }, response: none }),

  listPlatformNativeTemplates: ep({ method: 'GET', path: '/admin/native-templates', summary: 'The platform native ad templates shared by every account (platform administrators)', auth: PLATFORM, response: { templates: z.array(NativeTemplate) } }),
  createPlatformNativeTemplate: ep({ method: 'POST', path: '/admin/native-templates', summary: 'Create a platform template (name taken: 32)', auth: PLATFORM, request: NativeTemplateInput, response: { template: NativeTemplate } }),
  updatePlatformNativeTemplate: ep({ method: 'PUT', path: '/admin/native-templates/:templateId', summary: 'Change a platform template, or make it the platform default (unsetting the default: 33)', auth: PLATFORM, request: NativeTemplateInput, response: { template: NativeTemplate } }),
  deletePlatformNativeTemplate: ep({ method: 'DELETE', path: '/admin/native-templates/:templateId', summary: 'Delete a platform template (the default: 33)', auth: PLATFORM, response: none }),
} as const;
