/** /acquisition/uninstalls: see AttributionReport.tsx. */
import { AttributionReportPage } from './AttributionReport.tsx';

export default function UninstallsPage() {
  return <AttributionReportPage kind="uninstalls" />;
}
