/** Realistic German names and places for demo data. */
export const firstNames = [
  'Anna', 'Lukas', 'Marie', 'Leon', 'Sophie', 'Finn', 'Emma', 'Jonas', 'Mia', 'Paul', 'Hannah', 'Felix',
  'Lena', 'Maximilian', 'Laura', 'Tim', 'Julia', 'Niklas', 'Lea', 'Jan', 'Sarah', 'Tobias', 'Katharina',
  'Florian', 'Johanna', 'Sebastian', 'Clara', 'Moritz', 'Charlotte', 'David', 'Franziska', 'Matthias',
  'Sabine', 'Thomas', 'Petra', 'Andreas', 'Monika', 'Stefan', 'Ursula', 'Michael', 'Birgit', 'Jürgen',
  'Ingrid', 'Wolfgang', 'Gabriele', 'Klaus', 'Renate', 'Uwe', 'Heike', 'Dieter', 'Jörg', 'Özlem', 'Mehmet',
  'Elif', 'Karsten', 'Silke', 'Björn', 'Frauke', 'Henrik', 'Greta',
] as const;

export const lastNames = [
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Schäfer', 'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann',
  'Braun', 'Krüger', 'Hofmann', 'Hartmann', 'Lange', 'Schmitt', 'Werner', 'Schmitz', 'Krause', 'Meier',
  'Lehmann', 'Schmid', 'Schulze', 'Maier', 'Köhler', 'Herrmann', 'König', 'Walter', 'Mayer', 'Huber',
  'Kaiser', 'Fuchs', 'Peters', 'Lang', 'Scholz', 'Möller', 'Weiß', 'Jung', 'Hahn', 'Schubert', 'Vogel',
  'Friedrich', 'Keller', 'Günther', 'Frank', 'Berger', 'Winkler', 'Roth', 'Beck', 'Lorenz', 'Yılmaz',
] as const;

export const streets = [
  'Hauptstraße', 'Schulstraße', 'Gartenstraße', 'Bahnhofstraße', 'Dorfstraße', 'Bergstraße', 'Birkenweg',
  'Lindenstraße', 'Kirchstraße', 'Waldstraße', 'Ringstraße', 'Schillerstraße', 'Goethestraße', 'Mühlenweg',
  'Am Sportplatz', 'Rosenstraße', 'Feldstraße', 'Friedhofstraße', 'Wiesenweg', 'Poststraße', 'Blumenstraße',
  'Am Markt', 'Industriestraße', 'Mozartstraße', 'Eichenweg', 'Parkstraße', 'Kastanienallee', 'Beethovenstraße',
  'Ahornweg', 'Königsberger Straße', 'Friedrich-Ebert-Straße', 'Rathausplatz', 'Uhlandstraße', 'Tulpenweg',
  'Gewerbestraße', 'Am Hafen', 'Marktplatz', 'Bismarckstraße', 'Kantstraße', 'Hegelplatz',
] as const;

/** [zip code, city] pairs that exist. */
export const cities = [
  ['10115', 'Berlin'], ['10245', 'Berlin'], ['20095', 'Hamburg'], ['22765', 'Hamburg'], ['80331', 'München'],
  ['81667', 'München'], ['50667', 'Köln'], ['60311', 'Frankfurt am Main'], ['70173', 'Stuttgart'],
  ['40213', 'Düsseldorf'], ['44135', 'Dortmund'], ['45127', 'Essen'], ['04109', 'Leipzig'], ['28195', 'Bremen'],
  ['01067', 'Dresden'], ['30159', 'Hannover'], ['90403', 'Nürnberg'], ['47051', 'Duisburg'], ['44787', 'Bochum'],
  ['42103', 'Wuppertal'], ['33602', 'Bielefeld'], ['53111', 'Bonn'], ['48143', 'Münster'], ['76133', 'Karlsruhe'],
  ['68159', 'Mannheim'], ['86150', 'Augsburg'], ['65183', 'Wiesbaden'], ['79098', 'Freiburg im Breisgau'],
  ['24103', 'Kiel'], ['93047', 'Regensburg'], ['99084', 'Erfurt'], ['18055', 'Rostock'], ['14467', 'Potsdam'],
  ['97070', 'Würzburg'], ['89073', 'Ulm'], ['37073', 'Göttingen'],
] as const;

export const locationKinds = [
  'Parkhaus', 'Tiefgarage', 'Wohnanlage', 'Betriebshof', 'Firmenparkplatz', 'Quartiersgarage', 'Hotel',
  'Klinikum', 'Einkaufszentrum', 'Autohaus', 'Rathausparkplatz', 'Stadtwerke-Hof', 'Wohnpark', 'Campus',
] as const;

export const locationNames = [
  'Am Stadtpark', 'Mitte', 'Nord', 'Süd', 'Ost', 'West', 'Lindenhof', 'Sonnenhang', 'Hafenkante',
  'Marktplatz', 'Rosengarten', 'Am Bahnhof', 'Altstadt', 'Schlossblick', 'Kastanienhof', 'Mühlenviertel',
  'Eichenhain', 'Seeblick', 'Domplatz', 'Neue Mitte',
] as const;

export const positions = [
  'Geschäftsführerin', 'Geschäftsführer', 'Leiterin Elektromobilität', 'Leiter Abrechnung', 'Prokurist',
  'Teamleiterin Kundenservice', 'Projektleiter Ladeinfrastruktur',
] as const;

export const banks = [
  ['Sparkasse KölnBonn', 'COLSDE33XXX'],
  ['Berliner Sparkasse', 'BELADEBEXXX'],
  ['Commerzbank', 'COBADEFFXXX'],
  ['Deutsche Bank', 'DEUTDEDBXXX'],
  ['GLS Gemeinschaftsbank', 'GENODEM1GLS'],
  ['Hamburger Sparkasse', 'HASPDEHHXXX'],
] as const;

export const wallboxModelRows = [
  { name: 'ABL eMH1', manufacturer: 'ABL', connectorsPerStation: 1, maxPowerKw: '11.0' },
  { name: 'ABL eMH3 Twin', manufacturer: 'ABL', connectorsPerStation: 2, maxPowerKw: '22.0' },
  { name: 'Mennekes Amtron Compact 2.0s', manufacturer: 'Mennekes', connectorsPerStation: 1, maxPowerKw: '11.0' },
  { name: 'KEBA KeContact P30', manufacturer: 'KEBA', connectorsPerStation: 1, maxPowerKw: '22.0' },
  { name: 'Alfen Eve Double Pro-line', manufacturer: 'Alfen', connectorsPerStation: 2, maxPowerKw: '22.0' },
  { name: 'Compleo eBox professional', manufacturer: 'Compleo', connectorsPerStation: 1, maxPowerKw: '11.0' },
  { name: 'Webasto Unite', manufacturer: 'Webasto', connectorsPerStation: 2, maxPowerKw: '22.0' },
  { name: 'Wallbe Eco 2.0s', manufacturer: 'Wallbe', connectorsPerStation: 1, maxPowerKw: '11.0' },
] as const;
