/**
 * What a person would receive: a phone for push (the notification on the lock screen) and for the
 * in-app types (each at its position over a faux app screen), an e-mail client for e-mails (the
 * HTML body sanitised and shown in a sandboxed iframe), a feed card for native ads. Placeholders
 * (`{{customer_id}}`) are shown as written. Purely visual: no link in the preview leads anywhere.
 */
import { useMemo, type ReactNode } from 'react';
import { Badge, Box, Group, Paper, Stack, Text } from '@mantine/core';
import { IconBell, IconPhoto, IconX } from '@tabler/icons-react';
import type { MessageButton, MessageContent } from '@gd/shared/message/model';
import { useT } from '../../../i18n/useT.ts';
import { languageName } from './languages.ts';
import { sanitizeEmailHtml } from './sanitize.ts';
import './preview.css';

export interface MessagePreviewProps {
  content: MessageContent;
  language: string;
}

export function MessagePreview({ content, language }: MessagePreviewProps) {
  const { t, lang } = useT();
  return (
    <Paper withBorder radius="md" p="md" data-testid="message-preview" data-type={content.type} aria-label={t('messageEditor.preview.title')} component="section">
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Text fw={600}>{t('messageEditor.preview.title')}</Text>
        <Badge variant="light" color="gray" tt="none" radius="sm">
          {t('messageEditor.preview.caption', { type: t(`messages.type.${content.type}`), language: languageName(language, lang) })}
        </Badge>
      </Group>
      <Box dir="auto" lang={language}>
        <PreviewBody content={content} />
      </Box>
    </Paper>
  );
}

function PreviewBody({ content }: { content: MessageContent }) {
  switch (content.type) {
    case 'push':
    case 'test_ab':
      return <PushPreview content={content} />;
    case 'email':
      return <EmailPreview content={content} />;
    case 'native_ad':
      return <NativeAdPreview content={content} />;
    case 'banner':
    case 'strip':
    case 'adball':
    case 'coupon':
    case 'startview':
    case 'default':
    case 'dynamictab':
    case 'blank':
      return <InAppPreview content={content} />;
    default: {
      const never: never = content.type;
      throw new Error(`no preview for ${String(never)}`);
    }
  }
}

// --- The phone ------------------------------------------------------------------------------

function Phone({ children, lock = false }: { children: ReactNode; lock?: boolean }) {
  const { t } = useT();
  return (
    <div className="gd-phone" role="img" aria-label={t('messageEditor.preview.phone')}>
      <div className={`gd-phone-screen${lock ? ' gd-lock' : ''}`}>
        <div className="gd-phone-notch" />
        <div className="gd-phone-status" aria-hidden>
          <span>9:41</span>
          <span>●●● ▮</span>
        </div>
        {children}
      </div>
    </div>
  );
}

/** The app behind an in-app message: a bar and a few grey blocks. */
function AppScreen() {
  const { t } = useT();
  return (
    <>
      <div className="gd-app-bar">
        <span className="gd-app-icon" aria-hidden>
          <IconBell size={12} />
        </span>
        {t('messageEditor.preview.appName')}
      </div>
      <div className="gd-skeleton" style={{ height: 120 }} />
      <div className="gd-skeleton" style={{ height: 14, width: '60%' }} />
      <div className="gd-skeleton" style={{ height: 14, width: '80%' }} />
      <div className="gd-skeleton" style={{ height: 90 }} />
      <div className="gd-skeleton" style={{ height: 90 }} />
    </>
  );
}

/** An image from the content (a grey placeholder when it cannot be loaded); never a link. */
function Image({ url, className, height }: { url: string; className?: string; height?: number }) {
  if (!url.trim()) return null;
  return <img src={url} alt="" className={className} style={height ? { height } : undefined} referrerPolicy="no-referrer" loading="lazy" />;
}

function Buttons({ buttons }: { buttons: readonly MessageButton[] }) {
  if (buttons.length === 0) return null;
  return (
    <Group gap={6} mt={8} wrap="nowrap">
      {buttons.slice(0, 3).map((b, i) => (
        <span key={i} className="gd-preview-button">
          {b.text || '…'}
        </span>
      ))}
    </Group>
  );
}

function Texts({ content, size = 13 }: { content: MessageContent; size?: number }) {
  const { t } = useT();
  return (
    <>
      <Text fw={700} fz={size + 1} className="gd-preview-text" c={content.title ? undefined : 'dimmed'} lineClamp={3}>
        {content.title || t('messageEditor.preview.titlePlaceholder')}
      </Text>
      <Text fz={size} className="gd-preview-text" c={content.message ? undefined : 'dimmed'} lineClamp={6}>
        {content.message || t('messageEditor.preview.messagePlaceholder')}
      </Text>
    </>
  );
}

// --- Push -----------------------------------------------------------------------------------

function PushPreview({ content }: { content: MessageContent }) {
  const { t, lang } = useT();
  const date = useMemo(() => new Intl.DateTimeFormat(lang, { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date()), [lang]);
  return (
    <Phone lock>
      <div className="gd-lock-clock" aria-hidden>
        9:41
      </div>
      <div className="gd-lock-date" aria-hidden>
        {date}
      </div>
      <div className="gd-notification" data-testid="preview-notification">
        <Group gap={6} mb={4} wrap="nowrap">
          <span className="gd-app-icon" aria-hidden>
            <IconBell size={12} />
          </span>
          <Text fz={11} fw={600} tt="uppercase" c="dimmed" style={{ flex: 1 }}>
            {t('messageEditor.preview.appName')}
          </Text>
          <Text fz={11} c="dimmed">
            {t('messageEditor.preview.now')}
          </Text>
        </Group>
        <Group gap={8} wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            {content.title && (
              <Text fz={13} fw={700} className="gd-preview-text" lineClamp={2}>
                {content.title}
              </Text>
            )}
            <Text fz={13} className="gd-preview-text" c={content.message ? undefined : 'dimmed'} lineClamp={4}>
              {content.message || t('messageEditor.preview.messagePlaceholder')}
            </Text>
          </Stack>
        </Group>
        {content.image_url.trim() && <Image url={content.image_url} className="gd-inapp-image" height={120} />}
        {content.buttons.length > 0 && <Buttons buttons={content.buttons} />}
      </div>
    </Phone>
  );
}

// --- In-app ---------------------------------------------------------------------------------

const Close = () => {
  const { t } = useT();
  return (
    <span className="gd-inapp-close" aria-label={t('messageEditor.preview.close')} role="img">
      <IconX size={12} />
    </span>
  );
};

/** The HTML of an in-app message, sanitised, in its own sandboxed frame. */
function HtmlFrame({ html, height }: { html: string; height: number }) {
  const { t } = useT();
  const safe = useMemo(() => sanitizeEmailHtml(html), [html]);
  return <iframe title={t('messageEditor.preview.htmlContent')} sandbox="" srcDoc={safe} style={{ display: 'block', width: '100%', height, border: 0, background: '#fff' }} />;
}

function CardBody({ content, coupon = false }: { content: MessageContent; coupon?: boolean }) {
  const { t } = useT();
  return (
    <>
      <Image url={content.image_url} className="gd-inapp-image" />
      {content.html_body.trim() && <HtmlFrame html={content.html_body} height={160} />}
      <Box p={12}>
        <Texts content={content} />
        {coupon && (
          <div className="gd-coupon-code" data-testid="preview-coupon-code" aria-label={t('messageEditor.preview.code')}>
            {content.promo_code || '—'}
          </div>
        )}
        <Buttons buttons={content.buttons} />
      </Box>
    </>
  );
}

/** Where a banner, strip or ad ball sits on the screen. */
const vertical = (position: string | null): React.CSSProperties => {
  if (position === 'bottom') return { bottom: 16 };
  if (position === 'middle') return { top: '48%' };
  return { top: 40 };
};

function InAppPreview({ content }: { content: MessageContent }) {
  switch (content.type) {
    case 'banner':
      return (
        <Phone>
          <AppScreen />
          <div className="gd-banner" style={vertical(content.position)} data-testid="preview-banner" data-position={content.position ?? ''}>
            {content.image_url.trim() ? (
              <Image url={content.image_url} height={44} className="" />
            ) : (
              <span className="gd-app-icon" style={{ width: 36, height: 36, borderRadius: 10 }} aria-hidden>
                <IconPhoto size={18} />
              </span>
            )}
            <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
              <Texts content={content} size={12} />
            </Stack>
          </div>
        </Phone>
      );
    case 'strip':
      return (
        <Phone>
          <AppScreen />
          <div className="gd-strip" style={vertical(content.position)} data-testid="preview-strip" data-position={content.position ?? ''}>
            <Text fz={12} fw={600} className="gd-preview-text" lineClamp={2} style={{ flex: 1 }}>
              {[content.title, content.message].filter(Boolean).join(' · ') || '…'}
            </Text>
            <IconX size={12} aria-hidden />
          </div>
        </Phone>
      );
    case 'adball':
      return (
        <Phone>
          <AppScreen />
          <div className="gd-adball" style={content.position === 'left' ? { left: 8 } : { right: 8 }} data-testid="preview-adball" data-position={content.position ?? ''}>
            {content.image_url.trim() ? <Image url={content.image_url} height={58} /> : <span>{(content.title || '•').slice(0, 2)}</span>}
          </div>
        </Phone>
      );
    case 'startview':
      return (
        <Phone>
          <div className="gd-overlay" style={{ padding: 0, background: '#fff', alignItems: 'stretch' }} data-testid="preview-startview">
            <Stack gap={0} w="100%" style={{ position: 'relative' }}>
              <Close />
              {content.image_url.trim() ? <Image url={content.image_url} className="gd-inapp-image" height={260} /> : <div className="gd-skeleton" style={{ margin: 0, height: 220, borderRadius: 0 }} />}
              {content.html_body.trim() && <HtmlFrame html={content.html_body} height={200} />}
              <Box p={16}>
                <Texts content={content} size={14} />
                <Buttons buttons={content.buttons} />
              </Box>
            </Stack>
          </div>
        </Phone>
      );
    case 'coupon':
    case 'default':
    case 'dynamictab':
    case 'blank':
      return (
        <Phone>
          <AppScreen />
          <div className="gd-overlay" data-testid={`preview-${content.type}`}>
            <div className="gd-inapp-card">
              <Close />
              {content.type === 'blank' ? (
                content.html_body.trim() ? <HtmlFrame html={content.html_body} height={300} /> : <Box h={200} className="gd-skeleton" m={0} />
              ) : (
                <CardBody content={content} coupon={content.type === 'coupon'} />
              )}
            </div>
          </div>
        </Phone>
      );
    default:
      return null;
  }
}

// --- E-mail ---------------------------------------------------------------------------------

function EmailPreview({ content }: { content: MessageContent }) {
  const { t } = useT();
  const safe = useMemo(() => sanitizeEmailHtml(content.html_body), [content.html_body]);
  const sender = content.sender_name.trim() || content.sender_email.trim() ? `${content.sender_name.trim()}${content.sender_email.trim() ? ` <${content.sender_email.trim()}>` : ''}`.trim() : t('messageEditor.preview.noSender');
  return (
    <Paper withBorder radius="sm" style={{ overflow: 'hidden' }} data-testid="preview-email">
      <Stack gap={4} p="sm" bg="gray.0" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Text fw={700} className="gd-preview-text" data-testid="preview-email-subject" c={content.subject ? undefined : 'dimmed'}>
          {content.subject || t('messageEditor.preview.noSubject')}
        </Text>
        <Text size="sm" c="dimmed" className="gd-preview-text">
          <Text span size="sm" fw={600} c="dark">
            {t('messageEditor.preview.from')}:
          </Text>{' '}
          {sender}
        </Text>
      </Stack>
      {content.html_body.trim() ? (
        <iframe className="gd-email-frame" title={t('messageEditor.preview.bodyFrame')} sandbox="" srcDoc={safe} data-testid="preview-email-body" />
      ) : (
        <Text size="sm" c="dimmed" p="lg" ta="center">
          {content.template_id ? t('messageEditor.preview.templateBody', { template: content.template_id }) : t('messageEditor.preview.emptyBody')}
        </Text>
      )}
    </Paper>
  );
}

// --- Native ad ------------------------------------------------------------------------------

function NativeAdPreview({ content }: { content: MessageContent }) {
  const { t } = useT();
  return (
    <Phone>
      <AppScreen />
      <Box mx={14} style={{ position: 'absolute', top: 180, left: 0, right: 0, zIndex: 2 }}>
        <Paper radius="md" shadow="sm" style={{ overflow: 'hidden' }} data-testid="preview-native-ad">
          <Image url={content.image_url} className="gd-inapp-image" />
          <Box p={10}>
            <Text fz={10} c="dimmed" tt="uppercase" fw={600}>
              {t('messageEditor.preview.sponsored')}
            </Text>
            <Texts content={content} size={12} />
            <Group mt={8}>
              <span className="gd-preview-button">{t('messageEditor.preview.learnMore')}</span>
            </Group>
          </Box>
        </Paper>
      </Box>
    </Phone>
  );
}
