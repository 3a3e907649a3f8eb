/** /acquisition/retargeting: see AttributionReport.tsx. */
import { AttributionReportPage } from './AttributionReport.tsx';

export default function RetargetingPage() {
  return <AttributionReportPage kind="retargeting" />;
}
