import { Notice } from "./section";

/**
 * What a back-office form's action came back to say, at the top of its page: announced as an alert when it went
 * wrong (`problem`), else as a status.
 */
export function ResultNotice({
  problem,
  testId,
  children,
}: {
  problem: boolean;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <Notice tone={problem ? "warning" : "saved"} role={problem ? "alert" : "status"} testId={testId}>
      {children}
    </Notice>
  );
}
