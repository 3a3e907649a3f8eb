-- Message settings: the communication parameters of an app (/manage/communication-parameters,
-- SPEC.md section 3: types valueSelection and openText, names prefixed communicationParameter__)
-- and native ad templates, an app's own (/manage/native-templates) and the platform's, shared by
-- every account (/admin/native-templates, platform administrators only).

CREATE TABLE communication_parameters (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id      uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  -- The full name as messages write it ({{communicationParameter__name}}): lower case by the rule,
  -- so one plain unique index keeps names unique per app.
  name        text NOT NULL CHECK (name ~ '^communicationParameter__[a-z][a-z0-9_]{0,63}$'),
  label       text NOT NULL,
  type        text NOT NULL CHECK (type IN ('valueSelection','openText')),
  -- The choices of a valueSelection parameter, in the order people see them; empty for openText.
  choices     text[] NOT NULL DEFAULT '{}',
  created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((type = 'openText') = (cardinality(choices) = 0))
);
CREATE UNIQUE INDEX communication_parameters_app_name ON communication_parameters (app_id, name);

-- A template names the fields a native ad carries (a message's template_id picks one). Rows with
-- an app are that app's; rows without are the platform's, offered to every app.
CREATE TABLE native_ad_templates (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid REFERENCES accounts(id) ON DELETE CASCADE,
  app_id      uuid REFERENCES apps(id) ON DELETE CASCADE,
  name        text NOT NULL,
  -- [{ key, label, kind: text|image|url|color, required, maxLength? }], checked by the shared schema.
  fields      jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'array'),
  is_default  boolean NOT NULL DEFAULT false,
  created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((account_id IS NULL) = (app_id IS NULL))
);
CREATE UNIQUE INDEX native_ad_templates_app_name ON native_ad_templates (app_id, lower(name)) WHERE app_id IS NOT NULL;
CREATE UNIQUE INDEX native_ad_templates_platform_name ON native_ad_templates (lower(name)) WHERE app_id IS NULL;
-- At most one default per app and one for the platform (the API keeps it exactly one: the first
-- template of an app becomes its default, and the default is never deleted or unset, only moved).
CREATE UNIQUE INDEX native_ad_templates_app_default ON native_ad_templates (app_id) WHERE is_default AND app_id IS NOT NULL;
CREATE UNIQUE INDEX native_ad_templates_platform_default ON native_ad_templates ((app_id IS NULL)) WHERE is_default AND app_id IS NULL;

-- The platform's default template: what a native ad uses when its app has none of its own.
INSERT INTO native_ad_templates (name, fields, is_default) VALUES ('Standard', '[
  {"key": "headline", "label": "Headline", "kind": "text", "required": true, "maxLength": 50},
  {"key": "body", "label": "Body", "kind": "text", "required": true, "maxLength": 150},
  {"key": "image", "label": "Main image", "kind": "image", "required": true},
  {"key": "icon", "label": "Icon", "kind": "image", "required": false},
  {"key": "call_to_action", "label": "Call to action", "kind": "text", "required": false, "maxLength": 25},
  {"key": "click_url", "label": "Click URL", "kind": "url", "required": true}
]'::jsonb, true);
