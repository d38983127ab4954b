/** A term and its value, as the order page lists them. */
export type Fact = readonly [string, React.ReactNode];

/** Facts about the order as a description list: each term, then its value. */
export function FactList({ facts }: { facts: readonly Fact[] }) {
  return (
    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-stone-600">{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A phone number, always left to right; `none` when there is none. */
export function phoneOr(phone: string | null, none: string): React.ReactNode {
  return phone ? <span dir="ltr">{phone}</span> : none;
}
