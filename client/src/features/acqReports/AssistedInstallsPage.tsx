/** /acquisition/assisted-installs: see AttributionReport.tsx. */
import { AttributionReportPage } from './AttributionReport.tsx';

export default function AssistedInstallsPage() {
  return <AttributionReportPage kind="assisted" />;
}
