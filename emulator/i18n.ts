/**
 * English and Arabic texts: API error messages (Laravel style, like the real service) and hosted page wording.
 */

export type Lang = "en" | "ar";

/** Reads `lang=ar|en` from a query value, else an `Accept-Language` header starting with `ar`; default English. */
export function pickLang(query: string | undefined, acceptLanguage: string | undefined): Lang {
  if (query === "ar" || query === "en") return query;
  return acceptLanguage?.trim().toLowerCase().startsWith("ar") ? "ar" : "en";
}

/** Field names of `POST /payment/create` as they appear in validation messages. */
export type Field =
  "amount" | "currency" | "return_url" | "cancel_url" | "custom" | "full_name" | "email" | "phone" | "payment_gateway";

const ARABIC_FIELDS: Record<Field, string> = {
  amount: "المبلغ",
  currency: "العملة",
  return_url: "رابط العودة",
  cancel_url: "رابط الإلغاء",
  custom: "المرجع",
  full_name: "الاسم الكامل",
  email: "البريد الإلكتروني",
  phone: "رقم الهاتف",
  payment_gateway: "بوابة الدفع",
};

export interface ApiMessages {
  invalidClientId: string;
  invalidSecret: string;
  credentialsWrongMode: string;
  tokenNotFound: string;
  invalidToken: string;
  tokenExpired: string;
  conflict: string;
  prepaidDisabled: string;
  malformedJson: string;
  bodyNotObject: string;
  payloadTooLarge: string;
  required(field: Field): string;
  string(field: Field): string;
  numeric(field: Field): string;
  greaterThanZero(field: Field): string;
  amountFormat: string;
  invalidChoice(field: Field): string;
  url(field: Field): string;
  maxLength(field: Field, max: number): string;
  email(field: Field): string;
  phone(field: Field): string;
  rateLimited: string;
  notFound: string;
  methodNotAllowed: string;
  serverError: string;
  badGateway: string;
  serviceUnavailable: string;
  sandboxRejected: string;
}

const english = (field: Field) => field.replace(/_/g, " ");
const arabic = (field: Field) => ARABIC_FIELDS[field];

export const API_MESSAGES: Record<Lang, ApiMessages> = {
  en: {
    invalidClientId: "Invalid client ID",
    invalidSecret: "Invalid secret ID",
    credentialsWrongMode: "Requested credentials is invalid",
    tokenNotFound: "Access denied! Token not found",
    invalidToken: "Requested with invalid token!",
    tokenExpired: "Request token is expired",
    conflict:
      "A payment is already initialised for this access token. Please request a new authentication token for each order.",
    prepaidDisabled: "Prepaid card checkout is not enabled for this merchant.",
    malformedJson: "The request body must be valid JSON (Content-Type: application/json).",
    bodyNotObject: "The request body must be a JSON object.",
    payloadTooLarge: "The request body is too large.",
    required: (f) => `The ${english(f)} field is required.`,
    string: (f) => `The ${english(f)} must be a string.`,
    numeric: (f) => `The ${english(f)} must be a number.`,
    greaterThanZero: (f) => `The ${english(f)} must be greater than 0.`,
    amountFormat: "The amount must have exactly two decimal places, e.g. 25.00.",
    invalidChoice: (f) => `The selected ${english(f)} is invalid.`,
    url: (f) => `The ${english(f)} must be a valid URL.`,
    maxLength: (f, max) => `The ${english(f)} must not be greater than ${max} characters.`,
    email: (f) => `The ${english(f)} must be a valid email address.`,
    phone: (f) => `The ${english(f)} must be a valid phone number.`,
    rateLimited: "Too Many Attempts.",
    notFound: "The requested resource was not found.",
    methodNotAllowed: "The method is not supported for this route.",
    serverError: "Server Error",
    badGateway: "Bad Gateway",
    serviceUnavailable: "Service Unavailable",
    sandboxRejected: "The payment was rejected by the sandbox (sandbox:reject).",
  },
  ar: {
    invalidClientId: "معرّف العميل غير صالح",
    invalidSecret: "المفتاح السري غير صالح",
    credentialsWrongMode: "بيانات الاعتماد المطلوبة غير صالحة",
    tokenNotFound: "تم رفض الوصول! لم يتم العثور على الرمز",
    invalidToken: "تم الطلب باستخدام رمز غير صالح!",
    tokenExpired: "انتهت صلاحية رمز الطلب",
    conflict: "تمت تهيئة عملية دفع لرمز الوصول هذا مسبقًا. يرجى طلب رمز مصادقة جديد لكل طلب.",
    prepaidDisabled: "الدفع بالبطاقة مسبقة الدفع غير مفعّل لهذا التاجر.",
    malformedJson: "يجب أن يكون محتوى الطلب بصيغة JSON صالحة (Content-Type: application/json).",
    bodyNotObject: "يجب أن يكون محتوى الطلب كائن JSON.",
    payloadTooLarge: "محتوى الطلب كبير جدًا.",
    required: (f) => `حقل ${arabic(f)} مطلوب.`,
    string: (f) => `يجب أن يكون حقل ${arabic(f)} نصًا.`,
    numeric: (f) => `يجب أن يكون حقل ${arabic(f)} رقمًا.`,
    greaterThanZero: (f) => `يجب أن يكون حقل ${arabic(f)} أكبر من 0.`,
    amountFormat: "يجب أن يحتوي المبلغ على منزلتين عشريتين بالضبط، مثل 25.00.",
    invalidChoice: (f) => `قيمة ${arabic(f)} المختارة غير صالحة.`,
    url: (f) => `يجب أن يكون حقل ${arabic(f)} رابطًا صالحًا.`,
    maxLength: (f, max) => `يجب ألا يتجاوز طول حقل ${arabic(f)} ${max} حرفًا.`,
    email: (f) => `يجب أن يكون حقل ${arabic(f)} عنوان بريد إلكتروني صالحًا.`,
    phone: (f) => `يجب أن يكون حقل ${arabic(f)} رقم هاتف صالحًا.`,
    rateLimited: "محاولات كثيرة جدًا.",
    notFound: "المورد المطلوب غير موجود.",
    methodNotAllowed: "طريقة الطلب غير مدعومة لهذا المسار.",
    serverError: "خطأ في الخادم",
    badGateway: "بوابة غير صالحة",
    serviceUnavailable: "الخدمة غير متاحة",
    sandboxRejected: "رفضت البيئة التجريبية عملية الدفع (sandbox:reject).",
  },
};

/** Status of a payment, as shown on pages and in the control API. */
export type PaymentStatus = "pending" | "paid" | "declined" | "cancelled" | "expired";

export interface PageText {
  sandboxBadge: string;
  productionBadge: string;
  amount: string;
  reference: string;
  customer: string;
  fullName: string;
  email: string;
  phone: string;
  chooseGateway: string;
  gatewayLegend: string;
  chooseGatewayError: string;
  continue: string;
  continueTo(gateway: string): string;
  redirectingTo(gateway: string): string;
  redirectingHint: string;
  continueNow: string;
  gatewayHint: string;
  pay: string;
  decline: string;
  cancel: string;
  completedTitle: string;
  completedBody(status: string): string;
  backToMerchant: string;
  status: Record<PaymentStatus, string>;
  notFoundTitle: string;
  notFoundBody: string;
  expiredTitle: string;
  expiredBody: string;
  otherLanguage: string;
}

export const PAGE_TEXT: Record<Lang, PageText> = {
  en: {
    sandboxBadge: "Sandbox — no real money moves",
    productionBadge: "Production (emulated) — no real money moves",
    amount: "Amount",
    reference: "Order reference",
    customer: "Customer",
    fullName: "Full name",
    email: "Email",
    phone: "Phone",
    chooseGateway: "Choose a payment method",
    gatewayLegend: "Payment method",
    chooseGatewayError: "Choose a payment method to continue.",
    continue: "Continue",
    continueTo: (g) => `Continue to ${g}`,
    redirectingTo: (g) => `Redirecting you to ${g}…`,
    redirectingHint: "You will be taken to the payment page in a moment.",
    continueNow: "Continue now",
    gatewayHint: "Emulated gateway: choose how this payment ends.",
    pay: "Pay",
    decline: "Decline",
    cancel: "Cancel",
    completedTitle: "Payment already completed",
    completedBody: (s) => `This payment is ${s}. It cannot be paid again.`,
    backToMerchant: "Return to the merchant",
    status: { pending: "pending", paid: "paid", declined: "declined", cancelled: "cancelled", expired: "expired" },
    notFoundTitle: "Payment not found",
    notFoundBody: "This payment link is wrong or has been removed. Go back to the shop and start the payment again.",
    expiredTitle: "Payment link expired",
    expiredBody: "This payment link has expired. Go back to the shop and start the payment again.",
    otherLanguage: "العربية",
  },
  ar: {
    sandboxBadge: "بيئة تجريبية — لا تُنقل أموال حقيقية",
    productionBadge: "بيئة إنتاج (محاكاة) — لا تُنقل أموال حقيقية",
    amount: "المبلغ",
    reference: "مرجع الطلب",
    customer: "العميل",
    fullName: "الاسم الكامل",
    email: "البريد الإلكتروني",
    phone: "رقم الهاتف",
    chooseGateway: "اختر طريقة الدفع",
    gatewayLegend: "طريقة الدفع",
    chooseGatewayError: "اختر طريقة دفع للمتابعة.",
    continue: "متابعة",
    continueTo: (g) => `المتابعة إلى ${g}`,
    redirectingTo: (g) => `جارٍ تحويلك إلى ${g}…`,
    redirectingHint: "سيتم نقلك إلى صفحة الدفع بعد لحظات.",
    continueNow: "المتابعة الآن",
    gatewayHint: "بوابة محاكاة: اختر كيف تنتهي عملية الدفع هذه.",
    pay: "ادفع",
    decline: "رفض",
    cancel: "إلغاء",
    completedTitle: "اكتملت عملية الدفع مسبقًا",
    completedBody: (s) => `حالة عملية الدفع هذه: ${s}. لا يمكن دفعها مرة أخرى.`,
    backToMerchant: "العودة إلى المتجر",
    status: {
      pending: "قيد الانتظار",
      paid: "مدفوعة",
      declined: "مرفوضة",
      cancelled: "ملغاة",
      expired: "منتهية الصلاحية",
    },
    notFoundTitle: "لم يتم العثور على عملية الدفع",
    notFoundBody: "رابط الدفع هذا غير صحيح أو تمت إزالته. ارجع إلى المتجر وابدأ الدفع من جديد.",
    expiredTitle: "انتهت صلاحية رابط الدفع",
    expiredBody: "انتهت صلاحية رابط الدفع هذا. ارجع إلى المتجر وابدأ الدفع من جديد.",
    otherLanguage: "English",
  },
};
