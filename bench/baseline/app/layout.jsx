// The baseline app's only layout: no fonts, no styles, no providers.
export const metadata = {
  title: "Baseline checkout",
  description: "A bare Next.js checkout: the floor of the shop's benchmarks.",
};

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
