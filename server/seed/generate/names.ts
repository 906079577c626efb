import type { Rng } from "./random";

/**
 * Name parts for generated people. Common given names and surnames are
 * combined at random, so no generated person stands for a real one; the
 * register's real people are never imported.
 */

const NO_MALE = [
  "Anders", "Arne", "Bjørn", "Dag", "Eirik", "Erik", "Espen", "Finn", "Fredrik", "Geir", "Gunnar", "Halvor", "Hans", "Harald",
  "Helge", "Henrik", "Håkon", "Ivar", "Jan", "Jon", "Jonas", "Jørgen", "Kjell", "Knut", "Kristian", "Lars", "Leif", "Magnus",
  "Martin", "Mats", "Morten", "Nils", "Ola", "Olav", "Per", "Petter", "Rolf", "Rune", "Sigurd", "Simen", "Stein", "Steinar",
  "Sverre", "Sindre", "Terje", "Thomas", "Tor", "Torbjørn", "Tore", "Trond", "Trygve", "Vegard", "Vidar", "Øystein", "Ørjan",
  "Aksel", "Even", "Audun", "Einar", "Asbjørn",
] as const;

const NO_FEMALE = [
  "Anne", "Astrid", "Berit", "Camilla", "Elisabeth", "Eli", "Elin", "Hanne", "Heidi", "Hilde", "Ida", "Ingrid", "Ingvild",
  "Inger", "Kari", "Karin", "Kristin", "Line", "Linn", "Liv", "Maren", "Marit", "Marte", "Mette", "Nina", "Nora", "Ragnhild",
  "Randi", "Sigrid", "Silje", "Siri", "Solveig", "Synnøve", "Tone", "Tonje", "Torill", "Trine", "Turid", "Vigdis", "Wenche",
  "Åse", "Guro", "Gro", "Hege", "Janne", "Kjersti", "Lene", "Monica", "Ingeborg", "Sunniva", "Thea", "Tuva", "Unni", "Vibeke",
  "Yngvild", "Aud", "Bodil", "Eva", "Frida", "Helene",
] as const;

const NO_SURNAMES = [
  "Hansen", "Johansen", "Olsen", "Larsen", "Andersen", "Pedersen", "Nilsen", "Kristiansen", "Jensen", "Karlsen", "Johnsen",
  "Pettersen", "Eriksen", "Berg", "Haugen", "Hagen", "Johannessen", "Andreassen", "Jacobsen", "Dahl", "Jørgensen", "Halvorsen",
  "Henriksen", "Lund", "Sørensen", "Jakobsen", "Moen", "Gundersen", "Iversen", "Strand", "Solberg", "Svendsen", "Eide",
  "Knutsen", "Martinsen", "Paulsen", "Bakken", "Kristoffersen", "Mathisen", "Lie", "Amundsen", "Nguyen", "Rasmussen", "Ali",
  "Lunde", "Solheim", "Berge", "Moe", "Nygård", "Bakke", "Kristensen", "Fredriksen", "Holm", "Lien", "Hauge", "Christensen",
  "Andresen", "Nielsen", "Knudsen", "Evensen", "Sæther", "Aas", "Myhre", "Hanssen", "Ahmed", "Haugland", "Thomassen",
  "Sivertsen", "Simonsen", "Danielsen", "Berntsen", "Sandvik", "Rønning", "Arnesen", "Antonsen", "Næss", "Vik", "Haug",
  "Ellingsen", "Thorsen", "Edvardsen", "Birkeland", "Isaksen", "Gulbrandsen", "Ruud", "Aasen", "Strøm", "Myklebust", "Tangen",
  "Ødegård", "Eliassen", "Helland", "Bøe", "Jenssen", "Aune", "Mikkelsen", "Tveit", "Brekke", "Abrahamsen", "Madsen",
  "Fjeld", "Sunde", "Grønli", "Vold", "Skog", "Brenna", "Engen", "Hovland", "Kvam", "Lindberg", "Nesse", "Rustad", "Tvedt",
  "Ulriksen", "Vatne", "Wold", "Østby", "Aarseth", "Dale", "Fossum", "Grande", "Hoff", "Kleven",
] as const;

interface NameSet {
  male: readonly string[];
  female: readonly string[];
  surnames: readonly string[];
}

const FOREIGN: Record<string, NameSet> = {
  SE: {
    male: ["Anders", "Björn", "Erik", "Gustav", "Johan", "Lars", "Magnus", "Mikael", "Oskar", "Per"],
    female: ["Anna", "Emma", "Karin", "Linnea", "Maria", "Sara", "Sofia", "Elin", "Ebba", "Ingrid"],
    surnames: ["Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Olsson", "Persson", "Svensson", "Lindqvist"],
  },
  DK: {
    male: ["Mads", "Rasmus", "Søren", "Jens", "Niels", "Mikkel", "Anders", "Kasper", "Frederik", "Christian"],
    female: ["Mette", "Louise", "Camilla", "Sofie", "Anne", "Trine", "Maja", "Ida", "Katrine", "Lene"],
    surnames: ["Jensen", "Nielsen", "Hansen", "Pedersen", "Andersen", "Christensen", "Larsen", "Sørensen", "Rasmussen", "Madsen"],
  },
  DE: {
    male: ["Thomas", "Michael", "Andreas", "Stefan", "Markus", "Jürgen", "Klaus", "Wolfgang", "Tobias", "Florian"],
    female: ["Sabine", "Claudia", "Petra", "Katrin", "Julia", "Anja", "Susanne", "Monika", "Nicole", "Birgit"],
    surnames: ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Hoffmann", "Schäfer"],
  },
  AT: {
    male: ["Lukas", "Florian", "Stefan", "Christoph", "Markus", "Wolfgang", "Gerhard", "Johann", "Martin", "Andreas"],
    female: ["Anna", "Katharina", "Elisabeth", "Sandra", "Barbara", "Christina", "Andrea", "Verena", "Julia", "Eva"],
    surnames: ["Gruber", "Huber", "Bauer", "Wagner", "Pichler", "Steiner", "Moser", "Mayer", "Hofer", "Leitner"],
  },
  FR: {
    male: ["Jean", "Pierre", "Nicolas", "Philippe", "Laurent", "Julien", "Thomas", "Antoine", "François", "Olivier"],
    female: ["Marie", "Sophie", "Isabelle", "Nathalie", "Camille", "Claire", "Julie", "Céline", "Anne", "Valérie"],
    surnames: ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau"],
  },
  BE: {
    male: ["Pieter", "Jan", "Luc", "Marc", "Koen", "Thomas", "Olivier", "Bart", "Wouter", "Philippe"],
    female: ["Sarah", "Lien", "An", "Els", "Sophie", "Marie", "Nathalie", "Katrien", "Inge", "Julie"],
    surnames: ["Peeters", "Janssens", "Maes", "Jacobs", "Mertens", "Willems", "Claes", "Goossens", "Wouters", "Dubois"],
  },
  NL: {
    male: ["Jan", "Pieter", "Dirk", "Sander", "Bas", "Jeroen", "Thijs", "Ruud", "Maarten", "Wouter"],
    female: ["Anouk", "Sanne", "Lotte", "Femke", "Inge", "Marieke", "Eva", "Lisa", "Esther", "Sophie"],
    surnames: ["de Jong", "Jansen", "de Vries", "van den Berg", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder"],
  },
  LU: {
    male: ["Marc", "Paul", "Luc", "Jean", "Tom", "Yves", "Claude", "Gilles", "Laurent", "Patrick"],
    female: ["Anne", "Sandra", "Martine", "Carole", "Nadine", "Sophie", "Claudine", "Tessy", "Joëlle", "Nathalie"],
    surnames: ["Schmit", "Muller", "Weber", "Wagner", "Hoffmann", "Thill", "Schroeder", "Reuter", "Klein", "Kieffer"],
  },
  IT: {
    male: ["Marco", "Luca", "Giuseppe", "Alessandro", "Andrea", "Francesco", "Matteo", "Paolo", "Roberto", "Stefano"],
    female: ["Giulia", "Francesca", "Chiara", "Sara", "Valentina", "Elena", "Laura", "Martina", "Alessia", "Federica"],
    surnames: ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco"],
  },
  GB: {
    male: ["James", "Oliver", "William", "Thomas", "George", "Henry", "Daniel", "Matthew", "Richard", "Andrew"],
    female: ["Emma", "Charlotte", "Sophie", "Olivia", "Emily", "Lucy", "Hannah", "Rebecca", "Claire", "Sarah"],
    surnames: ["Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Davies", "Evans", "Thomas", "Roberts"],
  },
  IE: {
    male: ["Seán", "Conor", "Patrick", "Ciarán", "Declan", "Eoin", "Niall", "Liam", "Brian", "Cathal"],
    female: ["Aoife", "Siobhán", "Niamh", "Orla", "Sinéad", "Clodagh", "Róisín", "Aisling", "Ciara", "Gráinne"],
    surnames: ["Murphy", "Kelly", "O'Sullivan", "Walsh", "O'Brien", "Byrne", "Ryan", "O'Connor", "O'Neill", "Doyle"],
  },
  US: {
    male: ["Michael", "David", "John", "Robert", "Chris", "Brian", "Kevin", "Jason", "Ryan", "Eric"],
    female: ["Jennifer", "Jessica", "Ashley", "Amanda", "Sarah", "Megan", "Laura", "Rachel", "Nicole", "Emily"],
    surnames: ["Johnson", "Miller", "Davis", "Garcia", "Rodriguez", "Martinez", "Anderson", "Clark", "Lewis", "Walker"],
  },
  CA: {
    male: ["Liam", "Ethan", "Noah", "Mathieu", "Alexandre", "Ryan", "Tyler", "Jean-François", "Connor", "Owen"],
    female: ["Emma", "Chloé", "Olivia", "Émilie", "Sarah", "Jessica", "Megan", "Isabelle", "Hannah", "Camille"],
    surnames: ["Tremblay", "Gagnon", "Roy", "Côté", "Bouchard", "Smith", "Brown", "Wilson", "MacDonald", "Campbell"],
  },
  MX: {
    male: ["José", "Luis", "Carlos", "Juan", "Miguel", "Alejandro", "Jorge", "Fernando", "Ricardo", "Eduardo"],
    female: ["María", "Guadalupe", "Fernanda", "Sofía", "Daniela", "Mariana", "Valeria", "Ana", "Gabriela", "Lucía"],
    surnames: ["Hernández", "García", "Martínez", "López", "González", "Pérez", "Rodríguez", "Sánchez", "Ramírez", "Flores"],
  },
  JP: {
    male: ["Hiroshi", "Takashi", "Kenji", "Satoshi", "Daisuke", "Kazuki", "Yuto", "Haruto", "Shota", "Ryo"],
    female: ["Yuki", "Aiko", "Haruka", "Yui", "Sakura", "Misaki", "Naomi", "Emi", "Keiko", "Mei"],
    surnames: ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura", "Kobayashi", "Kato"],
  },
};

const NORWEGIAN: NameSet = { male: NO_MALE, female: NO_FEMALE, surnames: NO_SURNAMES };

export interface GeneratedName {
  name: string;
  sex: "M" | "F";
  surname: string;
}

/** A person's name in the style of the country; Norwegian style for Norway and unknown countries. */
export function generateName(rng: Rng, countryCode: string, surname?: string): GeneratedName {
  const set = FOREIGN[countryCode] ?? NORWEGIAN;
  const sex = rng.chance(0.5) ? "M" : "F";
  const given = sex === "M" ? set.male : set.female;
  let first = rng.pick(given);
  // Double given names ("Anne Marit", "Jan Erik") are common in Norway.
  if (set === NORWEGIAN && rng.chance(0.18)) {
    const second = rng.pick(given);
    if (second !== first) first = `${first} ${second}`;
  }
  let last = surname ?? rng.pick(set.surnames);
  if (!surname && set === NORWEGIAN && rng.chance(0.08)) {
    const other = rng.pick(set.surnames);
    if (other !== last) last = `${other} ${last}`;
  }
  return { name: `${first} ${last}`, sex, surname: last };
}
