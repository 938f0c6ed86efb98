/**
 * Questions about the sample corpus (samples/README.md) and the sentences the extractive engine
 * answers them with, as checked against the service over HTTP.
 */

export const samplePdf = "debian-uploads-and-bugs.pdf";

/**
 * Answered from page 1 of the PDF in two cited sentences, streamed one after the other: "… in
 * upload-directory DELAYED/X-day (X between 0 and 15).", then "With dput, you can use the
 * --delayed DELAY parameter …".
 */
export const delayedQueueQuestion = {
  question: "For how many days at most can an upload wait in the DELAYED queue?",
  firstSentence: "X between 0 and 15",
  secondSentence: "--delayed DELAY",
  pageNumber: 1,
  /** The sample is pages 34 to 38 of the Debian developer's reference, and says so in its page labels. */
  printedPage: "34",
} as const;

/**
 * The follow-up, asked in the same conversation: "those queues" are the delayed queues of the
 * first question. It is answered first with the dput option, in the conversation and alone: the
 * earlier turn widens what is searched, and the sentences cited must answer what is asked now.
 */
export const dputFollowUp = {
  question: "Which dput option puts my upload into one of those queues?",
  answerContains: "--delayed DELAY",
} as const;

/** WireGuard and VPNs appear nowhere in the corpus: the service refuses instead of guessing. */
export const unanswerableQuestion = "How do I set up a WireGuard VPN tunnel between two servers?";

/** In `manuals` it finds the PDF's upload sections; in `notes` backups.md first ("too large for one disk or upload"). */
export const searchQuery = {
  query: "upload",
  notesHeading: "Splitting a large archive",
  notesDocument: "Backups with standard tools",
} as const;
