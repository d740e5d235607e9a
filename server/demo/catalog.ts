/** What the demo data is made of: interview templates, people and what they say. */
import type { InterviewInput } from "@/server/domain/interviews";
import type { Random } from "./random";

type Template = InterviewInput & {
  /** Example answers per question position, for open_text questions. */
  sampleAnswers: Record<number, string[]>;
  aiQuestions: string[];
};

const cv = {
  label: "CV",
  description: "Your CV or résumé as a PDF.",
  acceptedTypes: ["application/pdf", ".pdf"],
  required: true,
};

export const interviewTemplates: Template[] = [
  {
    title: "Customer Support Specialist",
    language: "en",
    accessMode: "public",
    passMark: 65,
    questions: [
      { text: "Why do you want to work in customer support?", type: "open_text", required: true },
      { text: "Which shift suits you best?", type: "mcq", required: true, choices: ["Early", "Late", "Weekend", "Flexible"] },
      { text: "Are you comfortable handling phone calls?", type: "yes_no", required: true },
    ],
    sampleAnswers: {
      0: [
        "I enjoy solving problems for people and turning a bad day into a good one.",
        "I worked in retail for three years and liked helping customers most.",
        "Support is where you learn a product best, and I like explaining things clearly.",
      ],
    },
    aiStep: {
      type: "scripted",
      mode: "video",
      language: "en",
      timeLimitMinutes: 20,
      questionCount: 4,
      skills: ["Communication", "Empathy", "Problem solving"],
    },
    aiQuestions: [
      "Tell me about a time you calmed down an upset customer.",
      "How do you handle a question you cannot answer?",
      "How do you prioritise when the queue is long?",
      "What does great support mean to you?",
    ],
    documentStep: cv,
  },
  {
    title: "Backend Engineer (Node.js)",
    language: "en",
    accessMode: "invite_only",
    passMark: 70,
    questions: [
      { text: "Describe a system you built that you are proud of.", type: "open_text", required: true },
      { text: "How many years have you worked with Node.js?", type: "mcq", required: true, choices: ["0-1", "2-4", "5+"] },
      { text: "Do you have the right to work in the EU?", type: "yes_no", required: true },
      { text: "Anything else we should know?", type: "open_text", required: false },
    ],
    sampleAnswers: {
      0: [
        "A billing pipeline processing two million invoices a month on PostgreSQL and queues.",
        "An internal feature-flag service with audit logs and gradual rollouts.",
        "A webhook delivery system with retries and per-customer ordering.",
      ],
      3: ["I am available from next month.", "I would love to work on developer tooling.", "Happy to do a pairing session."],
    },
    aiStep: {
      type: "ai_led",
      mode: "audio_only",
      language: "en",
      timeLimitMinutes: 30,
      questionCount: 5,
      skills: ["System design", "Debugging", "Communication", "Testing"],
    },
    aiQuestions: [
      "Walk me through how you would design a rate limiter.",
      "Tell me about the hardest bug you have fixed.",
      "How do you decide what to test?",
      "How would you make a slow database query faster?",
      "How do you keep a long-running migration safe?",
    ],
    documentStep: cv,
  },
  {
    title: "Sales Development Representative",
    language: "en",
    accessMode: "public",
    passMark: null,
    questions: [
      { text: "What is the best sale you ever made?", type: "open_text", required: true },
      { text: "Have you used a CRM before?", type: "yes_no", required: true },
    ],
    sampleAnswers: {
      0: [
        "I sold a three-year contract to a hospital group after six months of follow-up.",
        "Convincing my university to switch catering suppliers for the student union.",
        "Upselling a warranty plan to a customer who came in for a cable.",
      ],
    },
    aiStep: {
      type: "scripted",
      mode: "video",
      language: "en",
      timeLimitMinutes: 15,
      questionCount: 3,
      skills: ["Persuasion", "Resilience", "Listening"],
    },
    aiQuestions: ["Pitch me the last product you bought.", "How do you handle a prospect who says no?", "How do you research a company before a call?"],
    documentStep: null,
  },
  {
    title: "Warehouse Associate",
    language: "en",
    accessMode: "public",
    passMark: null,
    questions: [
      { text: "Do you hold a forklift licence?", type: "yes_no", required: true },
      { text: "Which days can you work?", type: "mcq", required: true, choices: ["Weekdays", "Weekends", "Any day"] },
      { text: "Tell us about your previous warehouse experience.", type: "open_text", required: false },
    ],
    sampleAnswers: {
      2: ["Two years picking and packing at a parcel hub.", "Seasonal work at a grocery distribution centre.", "None yet, but I learn fast."],
    },
    aiStep: null,
    aiQuestions: [],
    documentStep: null,
  },
];

const firstNames = [
  "Amara",
  "Ben",
  "Chloé",
  "Dmitri",
  "Elena",
  "Farah",
  "Gabriel",
  "Hana",
  "Isaac",
  "Jonas",
  "Keira",
  "Luca",
  "Maya",
  "Nikhil",
  "Olivia",
  "Pedro",
  "Quinn",
  "Rosa",
  "Samir",
  "Tara",
  "Uma",
  "Victor",
  "Wen",
  "Yusuf",
  "Zoe",
];
const lastNames = [
  "Adeyemi",
  "Berg",
  "Castillo",
  "Dubois",
  "Eriksen",
  "Fischer",
  "García",
  "Haddad",
  "Ivanova",
  "Jensen",
  "Kowalski",
  "Larsen",
  "Moreau",
  "Nakamura",
  "O'Brien",
  "Patel",
  "Rossi",
  "Schmidt",
  "Tanaka",
  "Novak",
  "Walsh",
  "Yilmaz",
];

export function person(random: Random) {
  const first = random.pick(firstNames);
  const last = random.pick(lastNames);
  const handle = `${first}.${last}`
    .toLowerCase()
    .normalize("NFD")
    .replace(/[^a-z.]/g, "");
  return {
    name: `${first} ${last}`,
    email: `${handle}${random.int(1, 999)}@example.com`,
    phone: random.chance(0.6) ? `+44 7${random.int(100, 999)} ${random.int(100000, 999999)}` : null,
  };
}

export const teamNames = ["Priya Shah", "Tom Becker", "Ana Souza", "Lars Holm"];

const spokenAnswers = [
  "In my last role we had a backlog of complaints, so I set up a daily triage and we cut the wait in half.",
  "I would first make sure I understand the problem, then ask questions before proposing anything.",
  "Honestly, I would say I do not know yet, find out, and follow up the same day.",
  "I measure first. Most of the time the slow part is not where you expect it to be.",
  "I try to listen more than I talk, and write down what the other person actually needs.",
  "We split the work into small steps so each one could be checked and rolled back.",
];

export function transcriptFor(random: Random, questions: string[], answered: number) {
  return questions.map((question, index) => ({
    question,
    answer: index < answered ? random.pick(spokenAnswers) : "",
    speakingSeconds: index < answered ? random.int(25, 140) : 0,
  }));
}

const recommendationsByScore = [
  [85, "strongly_recommend"],
  [70, "recommended"],
  [50, "consider"],
  [0, "not_recommended"],
] as const;

export function scoreFor(random: Random, skills: string[], quotes: string[]) {
  const score = random.int(30, 97);
  const recommendation = recommendationsByScore.find(([floor]) => score >= floor)![1];
  return {
    score,
    recommendation,
    summary:
      score >= 70
        ? "Clear, structured answers with concrete examples; would do well in the role."
        : score >= 50
          ? "Reasonable answers but few specifics; worth a follow-up conversation."
          : "Answers stayed general and missed key parts of the questions.",
    strengths: random.chance(0.8) ? ["Gives concrete examples", "Structured thinking"].slice(0, random.int(1, 2)) : [],
    areasToImprove: ["Could quantify results more", "Answers ran long"].slice(0, random.int(0, 2)),
    skills: Object.fromEntries(skills.map((skill) => [skill, Math.max(0, Math.min(100, score + random.int(-15, 15)))])),
    highlights: quotes.slice(0, 2).map((quote, index) => ({
      quote,
      type: index === 0 ? ("strength" as const) : random.pick(["insight", "concern"] as const),
      why: index === 0 ? "Shows ownership of a real problem." : "Says how they would approach the work.",
    })),
  };
}
