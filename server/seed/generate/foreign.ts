import type { UnitRecord } from "../../importers";
import { daysBefore, isoDate, Rng } from "./random";

/**
 * Fictional companies in the other credit-report countries (shared/spec/02-supplier-credit-connections.md §9), so
 * that search and the credit dialog have something outside Norway. Names
 * carry "Demo" to be plainly invented; streets are generic, cities real.
 * org_number is a registration number in the country's own format,
 * prefixed with the country code so it can never collide with a Norwegian
 * number or another country's.
 */

interface ForeignCompany {
  name: string;
  industryCode: string;
  industry: string;
  employees: number;
  /** Fictional states for the role-status demo. */
  status?: "bankrupt" | "liquidation";
}

interface ForeignCountry {
  code: string;
  orgForm: string;
  /** A registration number in the local format (without the country prefix). */
  number: (rng: Rng) => string;
  addresses: readonly (readonly [street: string, postalCode: string, city: string])[];
  companies: readonly ForeignCompany[];
}

const digits = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join("");
const letters = (rng: Rng, n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + rng.int(0, 25))).join("");

export const FOREIGN_COUNTRIES: readonly ForeignCountry[] = [
  {
    code: "AT",
    orgForm: "GmbH",
    // Firmenbuchnummer: digits and a check letter.
    number: (r) => `FN${r.int(100000, 599999)}${String.fromCharCode(97 + r.int(0, 25))}`,
    addresses: [
      ["Industriestraße 14", "4020", "Linz"],
      ["Hauptstraße 3", "1010", "Wien"],
      ["Gewerbepark 7", "8020", "Graz"],
    ],
    companies: [
      { name: "Alpenhof Demo Maschinenbau GmbH", industryCode: "28.990", industry: "Manufacture of special-purpose machinery", employees: 240 },
      { name: "Donaublick Demo Logistik GmbH", industryCode: "49.410", industry: "Freight transport by road", employees: 85 },
      { name: "Kärntner Demo Holzwerk GmbH", industryCode: "16.100", industry: "Sawmilling and planing of wood", employees: 60 },
      { name: "Wienerwald Demo Software GmbH", industryCode: "62.010", industry: "Computer programming activities", employees: 45 },
    ],
  },
  {
    code: "BE",
    orgForm: "NV",
    // Enterprise number: ten digits starting with 0 or 1.
    number: (r) => `0${digits(r, 9)}`,
    addresses: [
      ["Havenlaan 21", "2000", "Antwerpen"],
      ["Rue de l'Industrie 8", "1000", "Bruxelles"],
      ["Kortrijksesteenweg 115", "9000", "Gent"],
    ],
    companies: [
      { name: "Scheldeport Demo Chemicals NV", industryCode: "20.140", industry: "Manufacture of other organic basic chemicals", employees: 410 },
      { name: "Ardennes Demo Bakeries SA", industryCode: "10.710", industry: "Manufacture of bread and fresh pastry goods", employees: 120 },
      { name: "Brabant Demo Engineering BV", industryCode: "71.129", industry: "Engineering activities and related technical consultancy", employees: 55 },
      { name: "Flandria Demo Textiles NV", industryCode: "13.920", industry: "Manufacture of made-up textile articles", employees: 90, status: "liquidation" },
    ],
  },
  {
    code: "CA",
    orgForm: "Inc.",
    // Business Number: nine digits.
    number: (r) => digits(r, 9),
    addresses: [
      ["200 Bay Street", "M5J 2J2", "Toronto"],
      ["1250 Boulevard René-Lévesque", "H3B 4W8", "Montréal"],
      ["88 Harbour Road", "V6C 3T4", "Vancouver"],
    ],
    companies: [
      { name: "Maple Ridge Demo Mining Inc.", industryCode: "07.290", industry: "Mining of other non-ferrous metal ores", employees: 300 },
      { name: "Northshore Demo Seafood Ltd.", industryCode: "10.200", industry: "Processing and preserving of fish", employees: 140 },
      { name: "Prairie Demo Software Corp.", industryCode: "62.010", industry: "Computer programming activities", employees: 75 },
      { name: "Laurentian Demo Freight Inc.", industryCode: "49.410", industry: "Freight transport by road", employees: 210 },
    ],
  },
  {
    code: "DK",
    orgForm: "A/S",
    // CVR number: eight digits.
    number: (r) => `${r.int(1, 4)}${digits(r, 7)}`,
    addresses: [
      ["Havnegade 12", "1058", "København K"],
      ["Industrivej 40", "8000", "Aarhus C"],
      ["Strandvejen 5", "9000", "Aalborg"],
    ],
    companies: [
      { name: "Kattegat Demo Vindservice ApS", industryCode: "33.140", industry: "Repair of electrical equipment", employees: 65 },
      { name: "Limfjord Demo Fødevarer A/S", industryCode: "10.890", industry: "Manufacture of other food products", employees: 180 },
      { name: "Øresund Demo Logistik A/S", industryCode: "52.290", industry: "Other transportation support activities", employees: 95 },
      { name: "Jyllands Demo Møbler ApS", industryCode: "31.010", industry: "Manufacture of office and shop furniture", employees: 40, status: "liquidation" },
    ],
  },
  {
    code: "FR",
    orgForm: "SAS",
    // SIREN: nine digits.
    number: (r) => `${r.int(3, 9)}${digits(r, 8)}`,
    addresses: [
      ["12 rue de la République", "69002", "Lyon"],
      ["45 avenue des Champs", "75008", "Paris"],
      ["3 quai du Port", "13002", "Marseille"],
    ],
    companies: [
      { name: "Rivage Demo Aéronautique SAS", industryCode: "30.300", industry: "Manufacture of air and spacecraft and related machinery", employees: 520 },
      { name: "Vignoble Demo Boissons SARL", industryCode: "11.020", industry: "Manufacture of wine from grape", employees: 35 },
      { name: "Lumière Demo Conseil SAS", industryCode: "70.220", industry: "Business and other management consultancy activities", employees: 28 },
      { name: "Provence Demo Emballages SA", industryCode: "17.210", industry: "Manufacture of corrugated paper and paperboard", employees: 150 },
    ],
  },
  {
    code: "DE",
    orgForm: "GmbH",
    // Handelsregister: register type and number.
    number: (r) => `HRB${r.int(10000, 299999)}`,
    addresses: [
      ["Hafenstraße 22", "20457", "Hamburg"],
      ["Industriering 9", "70565", "Stuttgart"],
      ["Rheinallee 31", "40213", "Düsseldorf"],
    ],
    companies: [
      { name: "Nordlicht Demo Anlagenbau GmbH", industryCode: "28.290", industry: "Manufacture of other general-purpose machinery", employees: 380 },
      { name: "Rheintal Demo Kunststoff GmbH", industryCode: "22.290", industry: "Manufacture of other plastic products", employees: 140 },
      { name: "Hanseblick Demo Spedition GmbH", industryCode: "49.410", industry: "Freight transport by road", employees: 260 },
      { name: "Schwarzwald Demo Elektronik AG", industryCode: "26.510", industry: "Manufacture of instruments for measuring and testing", employees: 900 },
    ],
  },
  {
    code: "IE",
    orgForm: "Ltd",
    // CRO company number: six digits.
    number: (r) => `${r.int(100000, 799999)}`,
    addresses: [
      ["14 Grand Canal Quay", "D02 X576", "Dublin"],
      ["Unit 5, Business Park", "T12 H2K7", "Cork"],
      ["2 Dock Road", "H91 C8D3", "Galway"],
    ],
    companies: [
      { name: "Liffey Demo Pharma Ltd", industryCode: "21.200", industry: "Manufacture of pharmaceutical preparations", employees: 230 },
      { name: "Connacht Demo Dairy Ltd", industryCode: "10.510", industry: "Operation of dairies and cheese making", employees: 160 },
      { name: "Emerald Demo Software Ltd", industryCode: "62.010", industry: "Computer programming activities", employees: 70 },
      { name: "Shannon Demo Aviation Services Ltd", industryCode: "52.230", industry: "Service activities incidental to air transportation", employees: 110 },
    ],
  },
  {
    code: "IT",
    orgForm: "S.r.l.",
    // Partita IVA: eleven digits.
    number: (r) => digits(r, 11),
    addresses: [
      ["Via Roma 18", "20121", "Milano"],
      ["Corso Italia 44", "50123", "Firenze"],
      ["Via del Porto 9", "16126", "Genova"],
    ],
    companies: [
      { name: "Lago Demo Meccanica S.r.l.", industryCode: "28.410", industry: "Manufacture of metal forming machinery", employees: 95 },
      { name: "Toscana Demo Tessile S.p.A.", industryCode: "13.200", industry: "Weaving of textiles", employees: 310 },
      { name: "Adriatica Demo Logistica S.r.l.", industryCode: "52.100", industry: "Warehousing and storage", employees: 60 },
      { name: "Dolomiti Demo Energia S.p.A.", industryCode: "35.110", industry: "Production of electricity", employees: 140 },
    ],
  },
  {
    code: "JP",
    orgForm: "K.K.",
    // Corporate Number: thirteen digits.
    number: (r) => `${r.int(1, 9)}${digits(r, 12)}`,
    addresses: [
      ["2-1 Marunouchi, Chiyoda-ku", "100-0005", "Tokyo"],
      ["4-3 Nakanoshima, Kita-ku", "530-0005", "Osaka"],
      ["1-8 Minato, Naka-ku", "231-0002", "Yokohama"],
    ],
    companies: [
      { name: "Sakura Demo Precision K.K.", industryCode: "26.700", industry: "Manufacture of optical instruments", employees: 450 },
      { name: "Kaigan Demo Marine K.K.", industryCode: "30.110", industry: "Building of ships and floating structures", employees: 800 },
      { name: "Midori Demo Foods K.K.", industryCode: "10.850", industry: "Manufacture of prepared meals and dishes", employees: 220 },
      { name: "Hikari Demo Systems K.K.", industryCode: "62.020", industry: "Computer consultancy activities", employees: 130 },
    ],
  },
  {
    code: "LU",
    orgForm: "S.A.",
    // RCS number: B and digits.
    number: (r) => `B${r.int(10000, 289999)}`,
    addresses: [
      ["15 Avenue John F. Kennedy", "1855", "Luxembourg"],
      ["7 Rue de l'Industrie", "4221", "Esch-sur-Alzette"],
    ],
    companies: [
      { name: "Moselle Demo Finance S.A.", industryCode: "64.300", industry: "Trusts, funds and similar financial entities", employees: 25 },
      { name: "Ardenne Demo Steelworks S.A.", industryCode: "24.100", industry: "Manufacture of basic iron and steel", employees: 600 },
      { name: "Kirchberg Demo Data S.à r.l.", industryCode: "63.110", industry: "Data processing, hosting and related activities", employees: 40 },
      { name: "Alzette Demo Logistics S.à r.l.", industryCode: "52.100", industry: "Warehousing and storage", employees: 75 },
    ],
  },
  {
    code: "MX",
    orgForm: "S.A. de C.V.",
    // RFC of a legal person: three letters, date of incorporation, homoclave.
    number: (r) =>
      `${letters(r, 3)}${String(r.int(80, 99)).padStart(2, "0")}${String(r.int(1, 12)).padStart(2, "0")}${String(r.int(1, 28)).padStart(2, "0")}${letters(r, 2)}${r.int(0, 9)}`,
    addresses: [
      ["Av. Paseo de la Reforma 250", "06600", "Ciudad de México"],
      ["Av. Constitución 1500", "64000", "Monterrey"],
      ["Calle Hidalgo 77", "44100", "Guadalajara"],
    ],
    companies: [
      { name: "Sierra Demo Manufacturas S.A. de C.V.", industryCode: "29.320", industry: "Manufacture of other parts for motor vehicles", employees: 700 },
      { name: "Costa Demo Alimentos S.A. de C.V.", industryCode: "10.390", industry: "Other processing of fruit and vegetables", employees: 260 },
      { name: "Altiplano Demo Minería S.A. de C.V.", industryCode: "07.290", industry: "Mining of other non-ferrous metal ores", employees: 420 },
      { name: "Golfo Demo Transportes S.A. de C.V.", industryCode: "49.410", industry: "Freight transport by road", employees: 150 },
    ],
  },
  {
    code: "NL",
    orgForm: "B.V.",
    // KvK number: eight digits.
    number: (r) => `${r.int(1, 9)}${digits(r, 7)}`,
    addresses: [
      ["Havenweg 10", "3011 AA", "Rotterdam"],
      ["Keizersgracht 200", "1016 DX", "Amsterdam"],
      ["Stationsplein 4", "3511 ED", "Utrecht"],
    ],
    companies: [
      { name: "Polder Demo Waterbouw B.V.", industryCode: "42.910", industry: "Construction of water projects", employees: 190 },
      { name: "Tulpenveld Demo Agri B.V.", industryCode: "01.190", industry: "Growing of other non-perennial crops", employees: 80 },
      { name: "Havenkade Demo Offshore B.V.", industryCode: "09.100", industry: "Support activities for petroleum and natural gas extraction", employees: 240 },
      { name: "Grachtzicht Demo Software B.V.", industryCode: "62.010", industry: "Computer programming activities", employees: 55 },
    ],
  },
  {
    code: "SE",
    orgForm: "AB",
    // Organisationsnummer: ten digits, 55xxxxxxxx for limited companies.
    number: (r) => `559${digits(r, 7)}`,
    addresses: [
      ["Storgatan 12", "411 38", "Göteborg"],
      ["Kungsgatan 30", "111 35", "Stockholm"],
      ["Industrigatan 6", "211 20", "Malmö"],
    ],
    companies: [
      { name: "Norrskog Demo Trävaror AB", industryCode: "16.100", industry: "Sawmilling and planing of wood", employees: 210 },
      { name: "Vänern Demo Verkstad AB", industryCode: "25.620", industry: "Machining", employees: 120 },
      { name: "Skärgård Demo Livsmedel AB", industryCode: "10.200", industry: "Processing and preserving of fish", employees: 85 },
      { name: "Fjällvind Demo Holding AB", industryCode: "64.200", industry: "Activities of holding companies", employees: 4 },
    ],
  },
  {
    code: "GB",
    orgForm: "Ltd",
    // Companies House number: eight digits.
    number: (r) => `${r.int(0, 1)}${digits(r, 7)}`,
    addresses: [
      ["21 Wharf Street", "LS1 4DN", "Leeds"],
      ["8 King's Road", "AB11 5PQ", "Aberdeen"],
      ["100 Old Street", "EC1V 9AZ", "London"],
    ],
    companies: [
      { name: "Thameside Demo Engineering Ltd", industryCode: "71.129", industry: "Other engineering activities", employees: 160 },
      { name: "Highland Demo Salmon Ltd", industryCode: "03.210", industry: "Marine aquaculture", employees: 140 },
      { name: "Pennine Demo Logistics Ltd", industryCode: "49.410", industry: "Freight transport by road", employees: 330 },
      { name: "Cotswold Demo Textiles plc", industryCode: "13.990", industry: "Manufacture of other textiles", employees: 420, status: "bankrupt" },
    ],
  },
  {
    code: "US",
    orgForm: "Inc.",
    // Employer Identification Number: nine digits.
    number: (r) => `${r.int(10, 98)}${digits(r, 7)}`,
    addresses: [
      ["1200 Louisiana Street", "77002", "Houston, TX"],
      ["400 Main Street", "48226", "Detroit, MI"],
      ["500 Pine Street", "98101", "Seattle, WA"],
    ],
    companies: [
      {
        name: "Bayou Demo Offshore Services Inc.",
        industryCode: "09.100",
        industry: "Support activities for petroleum and natural gas extraction",
        employees: 650,
      },
      { name: "Great Lakes Demo Components LLC", industryCode: "29.320", industry: "Manufacture of other parts for motor vehicles", employees: 380 },
      { name: "Cascade Demo Software Inc.", industryCode: "62.010", industry: "Computer programming activities", employees: 210 },
      { name: "Mesa Wind Demo Energy LLC", industryCode: "35.110", industry: "Production of electricity", employees: 90 },
    ],
  },
];

/** Longest first, so "S.A. de C.V." wins over "S.A.". */
const LEGAL_FORMS = [
  "S.A. de C.V.",
  "S.à r.l.",
  "S.r.l.",
  "S.p.A.",
  "SARL",
  "SAS",
  "S.A.",
  "GmbH",
  "AG",
  "NV",
  "SA",
  "BV",
  "B.V.",
  "Ltd.",
  "Ltd",
  "plc",
  "Inc.",
  "Corp.",
  "LLC",
  "ApS",
  "A/S",
  "K.K.",
  "AB",
];

/** The fictional foreign units, ready for upsertUnits. Dates of status changes follow `today`. */
export function foreignUnits(today: Date): UnitRecord[] {
  const units: UnitRecord[] = [];
  for (const country of FOREIGN_COUNTRIES) {
    country.companies.forEach((c, i) => {
      const rng = new Rng(`foreign:${country.code}:${c.name}`);
      const [street, postalCode, city] = country.addresses[i % country.addresses.length];
      const founded = `${rng.int(1955, 2016)}-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`;
      units.push({
        org_number: `${country.code}-${country.number(rng)}`,
        legal_name: c.name,
        country_code: country.code,
        org_form: LEGAL_FORMS.find((f) => c.name.endsWith(` ${f}`)) ?? country.orgForm,
        org_form_description: null,
        industry_code: c.industryCode,
        industry_description: c.industry,
        purpose: null,
        activity: null,
        number_of_employees: c.employees,
        establishment_date: founded,
        registration_date: founded,
        street_address: street,
        street_postal_code: postalCode,
        street_postal_area: city,
        municipality: null,
        municipality_code: null,
        postal_address: null,
        postal_code: null,
        postal_area: null,
        website: null,
        is_vat_registered: true,
        is_bankrupt: c.status === "bankrupt",
        date_of_bankruptcy: c.status === "bankrupt" ? isoDate(daysBefore(today, 150)) : null,
        is_under_liquidation: c.status === "liquidation",
        is_under_forced_liquidation: false,
        deleted_at: null,
        parent_org_number: null,
      });
    });
  }
  return units;
}
