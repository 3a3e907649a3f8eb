/** /acquisition/installs: see AttributionReport.tsx. */
import { AttributionReportPage } from './AttributionReport.tsx';

export default function InstallsPage() {
  return <AttributionReportPage kind="installs" />;
}
