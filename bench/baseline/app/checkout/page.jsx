import { checkout } from "../actions";

// One page, one form, one server action: what any Next.js checkout costs before it does anything of its own.
export default function Page() {
  return (
    <main>
      <h1>Checkout</h1>
      <form action={checkout}>
        <p>
          <label>
            Full name <input name="full_name" autoComplete="name" />
          </label>
        </p>
        <p>
          <label>
            Email <input name="email" type="email" autoComplete="email" />
          </label>
        </p>
        <p>
          <label>
            Phone <input name="phone" type="tel" autoComplete="tel" />
          </label>
        </p>
        <p>
          <label>
            <input type="radio" name="payment_gateway" value="sadad" defaultChecked /> Sadad
          </label>
        </p>
        <button type="submit">Pay 37.50 LYD</button>
      </form>
    </main>
  );
}
