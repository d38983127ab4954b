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
    <p
      role={problem ? "alert" : "status"}
      data-testid={testId}
      className={`rounded-lg border p-3 ${
        problem ? "border-amber-300 bg-amber-50 text-amber-900" : "border-green-300 bg-green-50 text-green-900"
      }`}
    >
      {children}
    </p>
  );
}
