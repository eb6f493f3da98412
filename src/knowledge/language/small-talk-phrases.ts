/**
 * What visitors write to a support bot that is not a question about the records: greetings,
 * thanks, goodbyes, "ok", "I have a question", "are you a bot?". Per language, each kind's
 * phrases, and the words that may come with them ("thanks **so much**", "hallo **zusammen**").
 * Written as people type them; `small-talk.ts` folds case, accents and apostrophes on both sides.
 */

/** Kinds of small talk, most telling first: "hi, are you a bot?" is about the bot; "thanks, bye" ends the chat. */
export const SMALL_TALK_KINDS = ['identity', 'announce', 'goodbye', 'thanks', 'greeting', 'ack'] as const;
export type SmallTalkKind = (typeof SMALL_TALK_KINDS)[number];

export interface SmallTalkLanguage {
  phrases: Readonly<Record<SmallTalkKind, readonly string[]>>;
  /** Words that add nothing on their own and may come with any phrase. */
  fillers: readonly string[];
  /** The bot's replies; `{bot}` is the bot's name. */
  replies: Readonly<Record<SmallTalkKind, string>>;
}

export const SMALL_TALK: Readonly<Record<string, SmallTalkLanguage>> = {
  en: {
    phrases: {
      identity: [
        'who are you', 'what are you', 'who am i talking to', 'who am i speaking to', 'who is this', 'are you a bot', 'are you a robot', 'are you a chatbot',
        'are you human', 'are you a human', 'are you a person', 'are you a real person', 'are you real', 'are you ai', 'are you an ai', 'is this a bot',
        'is this a real person', 'is this a human', 'am i talking to a bot', 'am i talking to a human', 'am i talking to a real person',
        'am i chatting with a bot', 'am i chatting with a human', 'what is your name', "what's your name", 'whats your name', 'what can you do',
        'what can you help with', 'what can you help me with',
      ],
      announce: [
        'i have a question', "i've got a question", 'ive got a question', 'i got a question', 'i have a few questions', 'i have some questions',
        'quick question', 'question', 'a question', 'can i ask a question', 'can i ask you a question', 'can i ask you something', 'can i ask something',
        'may i ask a question', 'may i ask something', 'can you help me', 'could you help me', 'can you help', 'could you help', 'can u help me', 'help',
        'help me', 'i need help', 'i need some help', 'need help', 'anyone there', 'is anyone there', 'is anybody there', 'anybody there',
        'are you there', 'yes', 'yeah', 'yep', 'yes please',
      ],
      thanks: [
        'thanks', 'thank you', 'thank u', 'thankyou', 'thx', 'thnx', 'thanx', 'ty', 'tyvm', 'many thanks', 'cheers', 'much appreciated',
        'appreciate it', 'i appreciate it', 'that helps', 'that helped', 'that was helpful', 'that is helpful', "that's helpful", 'thats helpful',
        'very helpful', 'super helpful', 'helpful', 'for your help', 'for the help', 'for helping', 'for helping me', 'for the info',
        'for the information', 'for your time', 'for the quick answer', 'for the quick reply', 'for the quick response', 'for the answer',
      ],
      goodbye: [
        'bye', 'goodbye', 'good bye', 'bye bye', 'see you', 'see ya', 'cya', 'see you later', 'talk later', 'have a nice day', 'have a good day',
        'have a great day', 'have a nice evening', 'have a good one', 'take care', 'good night', "that's all", 'thats all', 'that is all',
        "that's it", 'thats it', 'nothing else', 'no', 'nope', 'no thanks', 'no thank you', 'all good', "i'm good", 'im good',
      ],
      greeting: [
        'hi', 'hello', 'hey', 'hiya', 'heya', 'howdy', 'yo', 'greetings', 'good morning', 'good afternoon', 'good evening', 'morning', 'hi there',
        'hello there', 'hey there', 'how are you', 'how are you doing', "how's it going", 'hows it going', "what's up", 'whats up', 'sup',
      ],
      ack: [
        'ok', 'okay', 'k', 'kk', 'alright', 'all right', 'sure', 'great', 'perfect', 'cool', 'nice', 'awesome', 'got it', 'i see', 'understood',
        'fine', 'good', 'excellent', 'wonderful', 'fantastic', 'brilliant', 'lovely', 'sounds good', 'makes sense', 'noted', 'ah ok', 'oh ok',
      ],
    },
    fillers: [
      'so', 'much', 'very', 'really', 'a', 'lot', 'again', 'all', 'the', 'you', 'that', 'this', 'it', 'please', 'pls', 'plz', 'guys', 'there',
      'everyone', 'team', 'folks', 'mate', 'oh', 'ah', 'um', 'uh', 'hmm', 'well', 'just', 'too', 'and', 'then', 'bot', 'kind', 'kindly',
    ],
    replies: {
      identity: "I'm {bot}, an automated assistant. I answer from this site's knowledge base and show the records each answer comes from. What would you like to know?",
      announce: 'Of course. What would you like to know?',
      thanks: "You're welcome! Is there anything else I can help with?",
      goodbye: 'Goodbye, and thanks for getting in touch!',
      greeting: 'Hello! What would you like to know?',
      ack: 'Is there anything else I can help with?',
    },
  },
  de: {
    phrases: {
      identity: [
        'wer bist du', 'wer sind sie', 'was bist du', 'was sind sie', 'bist du ein bot', 'bist du ein roboter', 'bist du ein mensch', 'sind sie ein bot',
        'sind sie ein mensch', 'ist das ein bot', 'ist das ein mensch', 'bist du echt', 'bist du eine ki', 'sind sie eine ki', 'wie heißt du',
        'wie heisst du', 'was kannst du', 'was kannst du alles', 'wobei kannst du helfen', 'mit wem spreche ich', 'mit wem schreibe ich',
      ],
      announce: [
        'ich habe eine frage', 'ich hab eine frage', 'ich hab ne frage', 'ich hätte eine frage', 'ich habe ein paar fragen', 'eine frage', 'frage',
        'kurze frage', 'kannst du mir helfen', 'können sie mir helfen', 'könnt ihr mir helfen', 'kann mir jemand helfen', 'hilfe',
        'ich brauche hilfe', 'brauche hilfe', 'ist da jemand', 'jemand da', 'ja', 'ja bitte', 'jo',
      ],
      thanks: [
        'danke', 'danke schön', 'dankeschön', 'danke sehr', 'vielen dank', 'herzlichen dank', 'besten dank', 'danke dir', 'danke ihnen',
        'thx', 'das hilft', 'das hilft mir', 'das hat geholfen', 'das hat mir geholfen', 'sehr hilfreich', 'super hilfreich', 'hilfreich',
        'für die hilfe', 'für deine hilfe', 'für ihre hilfe', 'für die info', 'für die infos', 'für die auskunft', 'für die schnelle antwort',
      ],
      goodbye: [
        'tschüss', 'tschüs', 'tschau', 'ciao', 'auf wiedersehen', 'bis bald', 'bis dann', 'bis später', 'schönen tag', 'schönen tag noch',
        'einen schönen tag', 'schönen abend', 'gute nacht', 'das wars', "das war's", 'das ist alles', 'nichts weiter', 'sonst nichts', 'nein',
        'nein danke', 'nö',
      ],
      greeting: [
        'hallo', 'hi', 'hey', 'moin', 'moin moin', 'servus', 'grüezi', 'grüß gott', 'grüss gott', 'guten morgen', 'guten tag', 'guten abend', 'tag',
        'wie gehts', "wie geht's", 'wie geht es dir', 'wie geht es ihnen', 'hallöchen',
      ],
      ack: ['ok', 'okay', 'alles klar', 'klar', 'gut', 'super', 'prima', 'perfekt', 'toll', 'verstanden', 'passt', 'genau', 'alles gut', 'achso', 'ah ok'],
    },
    fillers: ['schön', 'sehr', 'vielmals', 'nochmal', 'noch', 'mal', 'auch', 'euch', 'dir', 'ihnen', 'alles', 'so', 'also', 'tausend', 'ganz', 'echt', 'wirklich', 'leute', 'team', 'zusammen', 'und', 'bitte', 'ihr'],
    replies: {
      identity: 'Ich bin {bot}, ein automatischer Assistent. Ich antworte aus der Wissensdatenbank dieser Website und zeige, aus welchen Einträgen jede Antwort stammt. Was möchtest du wissen?',
      announce: 'Gern. Was möchtest du wissen?',
      thanks: 'Gern geschehen! Kann ich sonst noch helfen?',
      goodbye: 'Tschüss und danke für deine Nachricht!',
      greeting: 'Hallo! Was möchtest du wissen?',
      ack: 'Kann ich sonst noch helfen?',
    },
  },
  fr: {
    phrases: {
      identity: [
        'qui êtes-vous', 'qui êtes vous', 'qui es-tu', 'qui es tu', 'tu es qui', 'vous êtes qui', 'tu es un robot', 'vous êtes un robot', 'es-tu un robot',
        'êtes-vous un robot', 'tu es un bot', 'vous êtes un bot', "c'est un robot", "c'est un bot", 'est-ce un robot', 'êtes-vous humain',
        'es-tu humain', 'tu es humain', 'vous êtes humain', 'tu es une ia', 'vous êtes une ia', 'comment tu t’appelles', "comment tu t'appelles",
        'que pouvez-vous faire', 'que peux-tu faire',
      ],
      announce: [
        "j'ai une question", "j'ai quelques questions", 'une question', 'question', 'petite question', 'pouvez-vous m’aider', "pouvez-vous m'aider",
        "pouvez vous m'aider", "vous pouvez m'aider", "tu peux m'aider", "peux-tu m'aider", 'aide', "à l'aide", "j'ai besoin d'aide",
        "besoin d'aide", "il y a quelqu'un", "y a quelqu'un", 'oui', 'oui svp', "oui s'il vous plaît",
      ],
      thanks: [
        'merci', 'merci beaucoup', 'merci bien', 'mille merci', 'mille mercis', 'je vous remercie', 'je te remercie', 'merci pour votre aide',
        "merci pour l'aide", "merci pour l'info", 'merci pour les infos', 'merci pour la réponse', "c'est gentil", "ça m'aide", 'ça aide',
        "ça m'a aidé", "ça m'a aidée", 'très utile', 'utile', 'top merci',
      ],
      goodbye: [
        'au revoir', 'à bientôt', 'a bientot', 'à plus', 'a plus', 'à plus tard', 'bonne journée', 'bonne soirée', 'bonne nuit', 'ciao',
        "c'est tout", 'rien d’autre', "rien d'autre", 'non', 'non merci',
      ],
      greeting: ['bonjour', 'bonsoir', 'salut', 'coucou', 'hello', 'allô', 'allo', 'ça va', 'comment ça va', 'comment allez-vous', 'comment allez vous'],
      ack: ["d'accord", 'ok', 'okay', 'dac', 'parfait', 'super', 'génial', 'top', 'très bien', 'entendu', 'compris', 'ça marche', 'bien', 'nickel', 'ah ok'],
    },
    fillers: ['beaucoup', 'encore', 'tout', 'vous', 'toi', 'madame', 'monsieur', 'ah', 'oh', 'alors', 'très', 'vraiment', 'et', 'svp', 'à', 'tous', 'à tous'],
    replies: {
      identity: "Je suis {bot}, un assistant automatique. Je réponds à partir de la base de connaissances de ce site et j'indique d'où vient chaque réponse. Que voulez-vous savoir ?",
      announce: 'Bien sûr. Que voulez-vous savoir ?',
      thanks: "Avec plaisir ! Puis-je vous aider pour autre chose ?",
      goodbye: 'Au revoir, et merci de votre message !',
      greeting: 'Bonjour ! Que voulez-vous savoir ?',
      ack: 'Puis-je vous aider pour autre chose ?',
    },
  },
  es: {
    phrases: {
      identity: ['quién eres', 'quien eres', 'quién es usted', 'eres un bot', 'eres un robot', 'eres humano', 'eres una persona', 'eres real', 'qué puedes hacer', 'como te llamas', 'cómo te llamas'],
      announce: ['tengo una pregunta', 'una pregunta', 'pregunta', 'me puedes ayudar', 'puedes ayudarme', 'me puede ayudar', 'puede ayudarme', 'ayuda', 'necesito ayuda', 'hay alguien', 'sí', 'si', 'sí por favor'],
      thanks: ['gracias', 'muchas gracias', 'mil gracias', 'muy amable', 'muy útil', 'te lo agradezco', 'se lo agradezco', 'por tu ayuda', 'por su ayuda', 'por la ayuda', 'por la información'],
      goodbye: ['adiós', 'adios', 'hasta luego', 'hasta pronto', 'chao', 'chau', 'buenas noches', 'que tengas un buen día', 'eso es todo', 'nada más', 'no', 'no gracias'],
      greeting: ['hola', 'buenos días', 'buenos dias', 'buenas tardes', 'buenas', 'qué tal', 'que tal', 'cómo estás', 'como estas'],
      ack: ['ok', 'vale', 'de acuerdo', 'perfecto', 'genial', 'entendido', 'bien', 'muy bien', 'claro', 'estupendo'],
    },
    fillers: ['muy', 'mucho', 'de', 'nuevo', 'todo', 'y', 'pues', 'bueno', 'por favor'],
    replies: {
      identity: 'Soy {bot}, un asistente automático. Respondo a partir de la base de conocimientos de este sitio e indico de dónde sale cada respuesta. ¿Qué quieres saber?',
      announce: 'Claro. ¿Qué quieres saber?',
      thanks: '¡De nada! ¿Puedo ayudarte con algo más?',
      goodbye: '¡Adiós, y gracias por escribirnos!',
      greeting: '¡Hola! ¿Qué quieres saber?',
      ack: '¿Puedo ayudarte con algo más?',
    },
  },
  it: {
    phrases: {
      identity: ['chi sei', 'chi è lei', 'sei un bot', 'sei un robot', 'sei umano', 'sei una persona', 'sei reale', 'cosa puoi fare', 'come ti chiami'],
      announce: ['ho una domanda', 'una domanda', 'domanda', 'mi puoi aiutare', 'puoi aiutarmi', 'mi può aiutare', 'può aiutarmi', 'aiuto', 'ho bisogno di aiuto', "c'è qualcuno", 'sì', 'si', 'sì grazie'],
      thanks: ['grazie', 'grazie mille', 'molte grazie', 'ti ringrazio', 'la ringrazio', 'molto utile', 'gentilissimo', 'gentilissima', "per l'aiuto", 'per le informazioni'],
      goodbye: ['arrivederci', 'ciao ciao', 'a presto', 'buona giornata', 'buona serata', 'buonanotte', 'è tutto', 'nient’altro', "nient'altro", 'no', 'no grazie'],
      greeting: ['ciao', 'salve', 'buongiorno', 'buonasera', 'come stai', 'come va'],
      ack: ['ok', 'va bene', 'perfetto', 'ottimo', 'capito', 'bene', 'benissimo', 'certo', "d'accordo"],
    },
    fillers: ['molto', 'tanto', 'tante', 'di', 'nuovo', 'tutto', 'e', 'allora', 'per favore'],
    replies: {
      identity: 'Sono {bot}, un assistente automatico. Rispondo in base alla knowledge base di questo sito e indico da dove viene ogni risposta. Cosa vuoi sapere?',
      announce: 'Certo. Cosa vuoi sapere?',
      thanks: 'Prego! Posso aiutarti in altro?',
      goodbye: 'Arrivederci, e grazie per averci scritto!',
      greeting: 'Ciao! Cosa vuoi sapere?',
      ack: 'Posso aiutarti in altro?',
    },
  },
  nl: {
    phrases: {
      identity: ['wie ben jij', 'wie ben je', 'wie bent u', 'ben jij een bot', 'ben je een bot', 'ben je een robot', 'ben je een mens', 'bent u een bot', 'wat kun je', 'wat kan je', 'hoe heet je'],
      announce: ['ik heb een vraag', 'een vraag', 'vraag', 'kun je me helpen', 'kunt u mij helpen', 'kan je me helpen', 'help', 'hulp', 'ik heb hulp nodig', 'is daar iemand', 'ja', 'ja graag'],
      thanks: ['bedankt', 'dank je', 'dank je wel', 'dankjewel', 'dank u', 'dank u wel', 'dankuwel', 'heel erg bedankt', 'top bedankt', 'handig', 'heel handig', 'voor de hulp', 'voor de info'],
      goodbye: ['doei', 'dag', 'tot ziens', 'tot later', 'fijne dag', 'fijne avond', 'welterusten', 'dat was het', 'dat is alles', 'verder niets', 'nee', 'nee bedankt'],
      greeting: ['hallo', 'hoi', 'hey', 'hi', 'goedemorgen', 'goedemiddag', 'goedenavond', 'hoe gaat het'],
      ack: ['ok', 'oké', 'okay', 'prima', 'perfect', 'top', 'duidelijk', 'begrepen', 'goed', 'helder', 'super', 'mooi'],
    },
    fillers: ['heel', 'erg', 'wel', 'nogmaals', 'allemaal', 'en', 'dan', 'alvast', 'graag'],
    replies: {
      identity: 'Ik ben {bot}, een automatische assistent. Ik antwoord op basis van de kennisbank van deze website en laat zien waar elk antwoord vandaan komt. Wat wil je weten?',
      announce: 'Natuurlijk. Wat wil je weten?',
      thanks: 'Graag gedaan! Kan ik nog ergens mee helpen?',
      goodbye: 'Tot ziens, en bedankt voor je bericht!',
      greeting: 'Hallo! Wat wil je weten?',
      ack: 'Kan ik nog ergens mee helpen?',
    },
  },
  pt: {
    phrases: {
      identity: ['quem é você', 'quem és tu', 'quem é voce', 'você é um bot', 'você é um robô', 'é um robô', 'você é humano', 'você é uma pessoa', 'o que você pode fazer', 'como te chamas', 'qual é o seu nome'],
      announce: ['tenho uma pergunta', 'uma pergunta', 'pergunta', 'pode me ajudar', 'podes ajudar-me', 'pode ajudar-me', 'ajuda', 'preciso de ajuda', 'tem alguém aí', 'sim', 'sim por favor'],
      thanks: ['obrigado', 'obrigada', 'muito obrigado', 'muito obrigada', 'obrigadão', 'valeu', 'agradeço', 'muito útil', 'pela ajuda', 'pela informação'],
      goodbye: ['tchau', 'adeus', 'até logo', 'até mais', 'até breve', 'boa noite', 'é tudo', 'mais nada', 'não', 'não obrigado', 'não obrigada'],
      greeting: ['olá', 'ola', 'oi', 'bom dia', 'boa tarde', 'tudo bem', 'tudo bom', 'como vai'],
      ack: ['ok', 'certo', 'perfeito', 'ótimo', 'otimo', 'entendi', 'entendido', 'beleza', 'combinado', 'está bem', 'tá bom', 'bem'],
    },
    fillers: ['muito', 'de', 'novo', 'tudo', 'e', 'então', 'por favor'],
    replies: {
      identity: 'Sou {bot}, um assistente automático. Respondo com base na base de conhecimento deste site e mostro de onde vem cada resposta. O que quer saber?',
      announce: 'Claro. O que quer saber?',
      thanks: 'De nada! Posso ajudar em mais alguma coisa?',
      goodbye: 'Até logo, e obrigado pela mensagem!',
      greeting: 'Olá! O que quer saber?',
      ack: 'Posso ajudar em mais alguma coisa?',
    },
  },
};
