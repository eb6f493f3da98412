/**
 * The benchmark's knowledge base: a 25-entry FAQ of a small online shop, the
 * kind of file a customer uploads, plus questions people ask about it (some
 * worded differently from the FAQ, some about things the FAQ does not cover).
 */

export interface FaqEntry {
  question: string;
  answer: string;
}

export const FAQ: readonly FaqEntry[] = [
  {
    question: 'What are your opening hours?',
    answer: 'Our customer service team is available Monday to Friday from 8:00 to 18:00 and Saturday from 9:00 to 13:00 (Central European Time). We are closed on Sundays and public holidays.',
  },
  {
    question: 'How long does delivery take?',
    answer: 'Orders placed before 14:00 on a working day leave our warehouse the same day. Standard delivery takes 2 to 4 working days within the EU and 5 to 8 working days to the United Kingdom, Norway and Switzerland.',
  },
  {
    question: 'How much does shipping cost?',
    answer: 'Shipping is free for orders over 60 EUR within the EU. Below that, standard shipping costs 4.90 EUR and express shipping 12.90 EUR. Shipping outside the EU is calculated at checkout by weight.',
  },
  {
    question: 'Can I return an item?',
    answer: 'Yes. You can return any unused item in its original packaging within 30 days of delivery. Start a return from your account page, print the prepaid label and drop the parcel at any partner post office.',
  },
  {
    question: 'When will I get my refund?',
    answer: 'Refunds are issued to the original payment method within 5 working days after the returned parcel reaches our warehouse. Your bank may need a few more days to show the amount on your statement.',
  },
  {
    question: 'Which payment methods do you accept?',
    answer: 'We accept Visa, Mastercard, American Express, PayPal, Apple Pay, Google Pay, SEPA direct debit and bank transfer. Business customers with an approved account can also pay by invoice within 30 days.',
  },
  {
    question: 'Is my payment information secure?',
    answer: 'Card payments are processed by our PCI DSS certified payment provider. We never see or store your full card number; the checkout page is served over TLS and protected by 3-D Secure where your bank supports it.',
  },
  {
    question: 'How do I track my order?',
    answer: 'As soon as your parcel leaves the warehouse we send an e-mail with the tracking number and a link to the carrier. You can also follow every order from the Orders section of your account.',
  },
  {
    question: 'Can I change or cancel my order?',
    answer: 'You can change the delivery address or cancel an order free of charge until it is packed, usually within two hours of ordering. Use the Cancel button on the order page or call customer service.',
  },
  {
    question: 'Do you ship internationally?',
    answer: 'We ship to all EU member states, the United Kingdom, Norway, Switzerland, Iceland and Liechtenstein. Customs duties for deliveries outside the EU are shown at checkout and paid by us, so there are no surprises at the door.',
  },
  {
    question: 'What is your warranty?',
    answer: 'All electronic products carry a 2-year manufacturer warranty from the date of delivery. Our own-brand furniture comes with a 5-year warranty against manufacturing defects. Keep your invoice as proof of purchase.',
  },
  {
    question: 'How do I claim a warranty repair?',
    answer: 'Open a warranty claim from the order page, describe the fault and attach a photo or short video. We reply within 2 working days with a repair, a replacement or a refund, and we pay the shipping both ways.',
  },
  {
    question: 'Do you offer gift cards?',
    answer: 'Digital gift cards from 10 to 500 EUR are sent by e-mail within minutes and are valid for 3 years. They can be used for any product, combined with other gift cards, and spent over several orders.',
  },
  {
    question: 'Can I get an invoice with VAT for my company?',
    answer: 'Yes. Enter your company name and VAT number at checkout and the invoice will show them. For valid EU VAT numbers outside our home country the reverse-charge rule applies and no VAT is charged.',
  },
  {
    question: 'How do I reset my password?',
    answer: 'Click "Forgot password" on the sign-in page and enter your e-mail address. We send a reset link that is valid for one hour. If the e-mail does not arrive, check your spam folder or contact support.',
  },
  {
    question: 'How do I delete my account?',
    answer: 'Go to Account settings, choose Privacy and select Delete account. Your personal data is erased within 30 days, except invoices, which the law requires us to keep for 10 years.',
  },
  {
    question: 'Do you have a physical store?',
    answer: 'Our showroom at Hafenstrasse 12 in Hamburg is open Tuesday to Saturday from 10:00 to 19:00. You can order online and collect in the showroom for free, usually the next working day.',
  },
  {
    question: 'Are your products sustainable?',
    answer: 'We ship in recycled cardboard without plastic fillers, offset the emissions of every delivery and list the origin and materials of each product on its page. Our own-brand furniture uses FSC-certified wood.',
  },
  {
    question: 'Do you offer assembly service?',
    answer: 'For furniture orders in Germany, Austria and the Netherlands we offer delivery with assembly for 49 EUR per item. Choose the option at checkout; the carrier calls you to agree on a time slot.',
  },
  {
    question: 'What if my item arrives damaged?',
    answer: 'Please report transport damage within 7 days with photos of the item and the packaging. We send a replacement at once or refund you, and the carrier collects the damaged item at no cost to you.',
  },
  {
    question: 'Do you have a loyalty programme?',
    answer: 'Members of our free loyalty club earn one point per euro spent. 100 points are worth 5 EUR off your next order, members get early access to sales, and points stay valid for 24 months.',
  },
  {
    question: 'Can I order by phone?',
    answer: 'Yes, our customer service can take your order by phone during opening hours on +49 40 1234 5678. Payment by phone is possible by bank transfer or a secure payment link sent by e-mail.',
  },
  {
    question: 'Do you price match?',
    answer: 'If you find the same new product cheaper at an authorised retailer within 14 days of your purchase, we refund the difference. Send us a link to the offer; marketplace sellers and clearance sales are excluded.',
  },
  {
    question: 'How do I subscribe to the newsletter?',
    answer: 'Enter your e-mail address at the bottom of any page and confirm the link we send. New subscribers receive a 10% discount code, and you can unsubscribe with one click from every newsletter.',
  },
  {
    question: 'How can I contact customer support?',
    answer: 'Write to support@shop.example, use the chat on our website or call +49 40 1234 5678 during opening hours. We answer e-mails within one working day, usually much faster.',
  },
];

/** What visitors ask: paraphrases of the FAQ and a few questions it cannot answer. */
/**
 * The question of the cached scenarios and of the profiles: answered from the delivery entry in
 * its own terms. (It used to ask about France, which the FAQ never names — it says "within the
 * EU" — and the answerer now refuses names the records never mention.)
 */
export const SAMPLE_QUESTION = 'How long does delivery take to Switzerland?';

export const QUESTIONS: readonly string[] = [
  'When are you open?',
  'how long will shipping take to france',
  'Is delivery free?',
  'I want to send back a jacket I bought last week',
  'when do I get my money back after a return',
  'can I pay with paypal',
  'Is it safe to enter my credit card?',
  'Where is my parcel?',
  'cancel my order please',
  'Do you deliver to Switzerland?',
  'how long is the guarantee on a laptop',
  'my headphones stopped working, what do I do',
  'do you sell gift vouchers',
  'I need an invoice with our VAT number',
  'forgot my password',
  'please remove my account and data',
  'Can I visit your shop in Hamburg?',
  'is the packaging recyclable',
  'will you assemble the wardrobe for me',
  'the table arrived broken',
  'how do loyalty points work',
  'can I place an order over the phone',
  'Do you match competitor prices?',
  'Is there a discount for newsletter subscribers?',
  'what is your support email address',
  'Do you sell bicycles?',
  'What is the meaning of life?',
];

/** The FAQ as the JSON file a customer would upload (an array of question/answer objects). */
export function faqJson(entries: readonly FaqEntry[] = FAQ): string {
  return JSON.stringify(entries, null, 2);
}
