"""TinyTalks in Spanish (TinyTalks (español), CC BY 4.0): written for TinyTorch C++ in Spanish, not
translated from the English set. scripts/make-tinytalks --lang es imports this module, calls levels()
and writes datasets/tinytalks/es/{train,validation,test}.txt with the same split as English.

The five levels are the English ones with as many pairs each (50, 86, 62, 99, 53), and the same kinds
of content, but the questions and answers are the ones a Spanish speaker would ask and give: "¿Para
qué sirve una llave?" -> "Una llave sirve para abrir puertas.", "¿Cuánto es 3 más 4?" -> "3 más 4
son 7.", "¿Cómo se llama la cría de la vaca?". The words are neutral Spanish, understood on both sides
of the Atlantic ("tú", never "vos" or "vosotros"; "lápiz" rather than "bolígrafo", "pluma" or
"lapicera"; no "coche", "carro" or "auto"; capitals in their Spanish names, París, Londres, Moscú).

Choices that keep the set learnable by a tiny character-level GPT:
- Short, regular answers: every item of a table is answered with the same template, as in English.
- Spanish agrees in gender and number, and a template cannot guess it: the tables store the
  agreeing forms themselves (the article with its noun, "la nieve" / "blanca", "las tijeras" /
  "sirven", "Cuántas" / "horas", "comida" / "favorita") instead of deriving them with string tricks.
  The only transformation is capitalising a phrase's first letter (always an unaccented article or
  name), so that no capital accented letter enters the character set.
- TinyBot speaks of itself in the masculine ("el modelo", "el programa": "Soy muy pequeño."); the
  person talking to it is never given a gender: answers avoid adjectives about the user ("Te da
  sueño." rather than "Estás cansado.", "¡Mucho gusto, Ana!" rather than "¡Encantado!").
- A small character set (68 characters): letters, digits, space, the accented letters á é í ó ú ñ ü
  (lower case only) and ¿ ? ¡ ! . , : -- numbers in arithmetic are digits, counts in facts are words.
  Names that would bring a character used once or twice (J, K, W, Y, O, k, w) were left out, so that
  every character of the set occurs in the training split.
- Arithmetic says "3 más 4 son 7." and "3 por 4 son 12." (plural "son", as children learn the
  tables; no result is 0 or 1, which would read better with "es"); division says "8 dividido entre
  2 es 4.", its usual form.
"""


def cap(phrase):
    """The phrase with its first letter in capitals ("el cielo" -> "El cielo"); the tables begin
    every phrase with an unaccented letter, so this never makes a capital accented letter."""
    return phrase[0].upper() + phrase[1:]


# ---------------------------------------------------------------------------------------------
# Level 1: greetings and identity. One answer per question; the bot is TinyBot.
LEVEL1 = [
    ("¡Hola!", "¡Hola! Soy TinyBot."),
    ("¡Buenas!", "¡Buenas! ¿En qué te ayudo?"),
    ("¡Buenos días!", "¡Buenos días! ¿Cómo estás?"),
    ("¡Buenas tardes!", "¡Buenas tardes a ti también!"),
    ("¡Buenas noches!", "¡Buenas noches! Que descanses."),
    ("¿Qué tal?", "Muy bien, ¿y tú?"),
    ("¿Cómo estás?", "Estoy bien, gracias."),
    ("¿Cómo estás hoy?", "Hoy estoy muy bien, gracias."),
    ("¿Cómo te llamas?", "Me llamo TinyBot."),
    ("¿Cuál es tu nombre?", "Mi nombre es TinyBot."),
    ("¿Quién eres?", "Soy TinyBot, un modelo pequeño."),
    ("¿Quién te hizo?", "Me hizo el equipo de TinyTorch."),
    ("¿Qué eres?", "Soy un modelo de lenguaje pequeño."),
    ("¿Eres un robot?", "Más o menos: soy un programa."),
    ("¿Eres una persona?", "No, soy un programa."),
    ("¿Cuántos años tienes?", "Soy muy nuevo."),
    ("¿Dónde vives?", "Vivo dentro de una máquina."),
    ("¿Qué haces?", "Respondo preguntas cortas."),
    ("¿Me puedes ayudar?", "Sí, lo puedo intentar."),
    ("¡Gracias!", "¡De nada!"),
    ("¡Muchas gracias!", "¡No hay de qué!"),
    ("¡Adiós!", "¡Adiós! Hasta pronto."),
    ("¡Hasta luego!", "¡Hasta luego! Cuídate."),
    ("¡Nos vemos!", "¡Nos vemos pronto!"),
    ("¡Mucho gusto!", "¡El gusto es mío!"),
    ("¿Te caigo bien?", "Sí, me gusta hablar contigo."),
    ("¿Estás contento?", "Sí, me alegra ayudarte."),
    ("¿Puedes hablar?", "Sí, puedo escribir respuestas."),
    ("¿Puedes ver?", "No, solo puedo leer texto."),
    ("¿Puedes oír?", "No, solo puedo leer texto."),
    ("¿Duermes?", "No, yo no duermo."),
    ("¿Comes?", "No, yo no como."),
    ("¿Qué idioma hablas?", "Hablo español."),
    ("¿Cuál es tu trabajo?", "Mi trabajo es responder preguntas."),
    ("¿Eres inteligente?", "Soy pequeño, pero lo intento."),
    ("¿Tienes cuerpo?", "No, no tengo cuerpo."),
    ("¿Cuál es tu color favorito?", "Mi color favorito es el azul."),
    ("¿Cuál es tu número favorito?", "Mi número favorito es el siete."),
    ("¿Tienes amigos?", "Sí, te tengo a ti."),
    ("¿Eres real?", "Soy un programa de verdad."),
    ("Háblame de ti.", "Soy TinyBot, un modelo muy pequeño."),
    ("¿Eres grande?", "No, soy muy pequeño."),
    ("¿Qué sabes hacer?", "Sé responder preguntas sencillas."),
    ("¡Buen trabajo!", "¡Gracias!"),
    ("¡Lo siento!", "No pasa nada."),
    ("Ayúdame, por favor.", "Claro, hazme una pregunta."),
    ("¡Bienvenido!", "¡Gracias!"),
    ("¿Qué hay de nuevo?", "Nada especial, ¿y tú?"),
    ("Estoy triste.", "Lo siento. Espero que te sientas mejor."),
    ("Estoy feliz.", "¡Qué bien! Me alegro mucho."),
]

# ---------------------------------------------------------------------------------------------
# Level 2: simple facts, from small tables. Each row holds its agreeing forms.

# (thing with its article, colour agreeing with it): "La nieve es blanca."
COLORS = [("el cielo", "azul"), ("la hierba", "verde"), ("la nieve", "blanca"), ("el carbón", "negro"),
          ("el tomate", "rojo"), ("la naranja", "naranja"), ("el sol", "amarillo"), ("la leche", "blanca"),
          ("la fresa", "roja"), ("la hoja", "verde"), ("el mar", "azul"), ("la sangre", "roja"),
          ("el limón", "amarillo"), ("la zanahoria", "naranja"), ("la nube", "blanca"), ("el cuervo", "negro")]
# (animal, legs in words, or None for "no tiene patas"): "Una araña tiene ocho patas."
LEGS = [("un perro", "cuatro"), ("un gato", "cuatro"), ("un pájaro", "dos"), ("una araña", "ocho"),
        ("una hormiga", "seis"), ("un caballo", "cuatro"), ("una gallina", "dos"), ("un pez", None),
        ("una vaca", "cuatro"), ("un pato", "dos"), ("una abeja", "seis"), ("una serpiente", None),
        ("una rana", "cuatro"), ("un elefante", "cuatro")]
# (animal, the verb for its sound): "El perro ladra."
SOUNDS = [("el perro", "ladra"), ("el gato", "maúlla"), ("la vaca", "muge"), ("el pato", "grazna"),
          ("el león", "ruge"), ("la oveja", "bala"), ("el caballo", "relincha"), ("la abeja", "zumba"),
          ("la serpiente", "sisea"), ("el cerdo", "gruñe"), ("el búho", "ulula"), ("la rana", "croa")]
# (country, capital), in their Spanish names.
CAPITALS = [("Francia", "París"), ("Chile", "Santiago"), ("Italia", "Roma"), ("España", "Madrid"),
            ("Alemania", "Berlín"), ("Inglaterra", "Londres"), ("Egipto", "El Cairo"), ("Cuba", "La Habana"),
            ("Perú", "Lima"), ("Rusia", "Moscú"), ("Grecia", "Atenas"), ("Argentina", "Buenos Aires"),
            ("Colombia", "Bogotá"), ("Portugal", "Lisboa")]
# ("del"/"de la" with the animal, its young with the article): "La cría de la vaca es el ternero."
YOUNG = [("del perro", "el cachorro"), ("del gato", "el gatito"), ("de la vaca", "el ternero"),
         ("de la oveja", "el cordero"), ("del caballo", "el potro"), ("del pato", "el patito"),
         ("de la rana", "el renacuajo"), ("de la gallina", "el pollito")]
# (word, its opposite), both in the masculine singular, the dictionary form.
OPPOSITES = [("caliente", "frío"), ("grande", "pequeño"), ("arriba", "abajo"), ("día", "noche"),
             ("rápido", "lento"), ("alegre", "triste"), ("abierto", "cerrado"), ("mojado", "seco"),
             ("viejo", "nuevo"), ("claro", "oscuro"), ("lleno", "vacío"), ("temprano", "tarde")]
# ("Cuántos"/"Cuántas" agreeing with the unit, unit, whole, count in words):
# "¿Cuántas horas tiene un día?" -> "Un día tiene veinticuatro horas."
COUNTS = [("Cuántos", "días", "una semana", "siete"), ("Cuántos", "meses", "un año", "doce"),
          ("Cuántas", "horas", "un día", "veinticuatro"), ("Cuántos", "minutos", "una hora", "sesenta"),
          ("Cuántas", "estaciones", "un año", "cuatro"), ("Cuántas", "letras", "el abecedario", "veintisiete"),
          ("Cuántas", "ruedas", "una bicicleta", "dos"), ("Cuántas", "ruedas", "un triciclo", "tres"),
          ("Cuántos", "lados", "un cuadrado", "cuatro"), ("Cuántos", "lados", "un triángulo", "tres")]


def level2():
    pairs = []
    for thing, color in COLORS:
        pairs.append((f"¿De qué color es {thing}?", f"{cap(thing)} es {color}."))
    for animal, legs in LEGS:
        answer = f"{cap(animal)} tiene {legs} patas." if legs else f"{cap(animal)} no tiene patas."
        pairs.append((f"¿Cuántas patas tiene {animal}?", answer))
    for animal, verb in SOUNDS:
        pairs.append((f"¿Qué sonido hace {animal}?", f"{cap(animal)} {verb}."))
    for country, city in CAPITALS:
        pairs.append((f"¿Cuál es la capital de {country}?", f"La capital de {country} es {city}."))
    for animal, young in YOUNG:
        pairs.append((f"¿Cómo se llama la cría {animal}?", f"La cría {animal} es {young}."))
    for word, opposite in OPPOSITES:
        pairs.append((f"¿Qué es lo contrario de {word}?", f"Lo contrario de {word} es {opposite}."))
    for how_many, unit, whole, count in COUNTS:
        pairs.append((f"¿{how_many} {unit} tiene {whole}?", f"{cap(whole)} tiene {count} {unit}."))
    return pairs


# ---------------------------------------------------------------------------------------------
# Level 3: arithmetic on small numbers, in digits. "son" for every result (none is 0 or 1, which
# would read better with "es"), except division, whose usual form is "8 dividido entre 2 es 4.".
SUMS = [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (1, 5), (2, 6), (3, 6),
        (2, 7), (1, 8), (6, 3), (5, 4), (7, 2), (8, 1), (4, 2), (6, 4)]
DIFFERENCES = [(5, 2), (7, 3), (9, 4), (8, 5), (6, 1), (10, 5), (4, 2), (9, 7), (7, 5), (10, 3), (10, 4),
               (6, 4), (9, 6), (9, 2), (3, 1)]
PRODUCTS = [(2, 2), (2, 3), (3, 3), (2, 4), (5, 2), (3, 4), (4, 4), (2, 5), (3, 5), (10, 2), (6, 2), (1, 7)]
QUOTIENTS = [(4, 2), (6, 3), (8, 2), (9, 3), (10, 5), (12, 4), (10, 2), (6, 2)]


def level3():
    pairs = []
    for a, b in SUMS:
        pairs.append((f"¿Cuánto es {a} más {b}?", f"{a} más {b} son {a + b}."))
    for a, b in DIFFERENCES:
        pairs.append((f"¿Cuánto es {a} menos {b}?", f"{a} menos {b} son {a - b}."))
    for a, b in PRODUCTS:
        pairs.append((f"¿Cuánto es {a} por {b}?", f"{a} por {b} son {a * b}."))
    for a, b in QUOTIENTS:
        pairs.append((f"¿Cuánto es {a} dividido entre {b}?", f"{a} dividido entre {b} es {a // b}."))
    for n in [3, 5, 7, 9]:
        pairs.append((f"¿Qué número viene después del {n}?", f"Después del {n} viene el {n + 1}."))
    for n in [4, 6, 8]:
        pairs.append((f"¿Qué número viene antes del {n}?", f"Antes del {n} viene el {n - 1}."))
    results = [a + b for a, b in SUMS] + [a - b for a, b in DIFFERENCES] + [a * b for a, b in PRODUCTS]
    assert min(results) >= 2, "a result of 0 or 1 would not read well with \"son\""
    return pairs


# ---------------------------------------------------------------------------------------------
# Level 4: common-sense reasoning: what things are for, comparisons, causes, where animals live,
# categories, why.

# (thing with its article, "sirve"/"sirven" agreeing with it, use): "Las tijeras sirven para cortar papel."
USES = [("un lápiz", "sirve", "para escribir"), ("una taza", "sirve", "para beber"),
        ("una cama", "sirve", "para dormir"), ("una llave", "sirve", "para abrir puertas"),
        ("un cuchillo", "sirve", "para cortar la comida"), ("una cuchara", "sirve", "para comer sopa"),
        ("una silla", "sirve", "para sentarse"), ("una toalla", "sirve", "para secarse"),
        ("el jabón", "sirve", "para lavarse"), ("una escoba", "sirve", "para barrer"),
        ("un libro", "sirve", "para leer"), ("una escalera", "sirve", "para subir"),
        ("un mapa", "sirve", "para encontrar el camino"), ("un reloj", "sirve", "para saber la hora"),
        ("un horno", "sirve", "para hornear"), ("un teléfono", "sirve", "para llamar"),
        ("las tijeras", "sirven", "para cortar papel"), ("un pincel", "sirve", "para pintar"),
        ("un peine", "sirve", "para peinarse"), ("un paraguas", "sirve", "para no mojarse"),
        ("un tenedor", "sirve", "para comer"), ("un sombrero", "sirve", "para cubrir la cabeza"),
        ("una lámpara", "sirve", "para dar luz"), ("una mochila", "sirve", "para llevar cosas")]
# (one, other, the bigger one): "¿Cuál es más grande, un gato o un caballo?" -> "Un caballo es más grande."
BIGGER = [("un gato", "un caballo", "un caballo"), ("un ratón", "un elefante", "un elefante"),
          ("una hormiga", "un perro", "un perro"), ("una casa", "una taza", "una casa"),
          ("una ballena", "un pez", "una ballena"), ("un árbol", "una flor", "un árbol"),
          ("una pelota", "una montaña", "una montaña"), ("el sol", "la luna", "el sol"),
          ("una uva", "una sandía", "una sandía"), ("un charco", "un lago", "un lago"),
          ("una mosca", "un pájaro", "un pájaro"), ("una silla", "una mesa", "una mesa")]
# (one, other, the faster one, "rápido"/"rápida" agreeing with it); every question names a
# masculine noun, so the question says "más rápido".
FASTER = [("un caracol", "un conejo", "un conejo", "rápido"), ("un avión", "un tren", "un avión", "rápido"),
          ("una tortuga", "un caballo", "un caballo", "rápido"), ("un guepardo", "una vaca", "un guepardo", "rápido"),
          ("un gusano", "una liebre", "una liebre", "rápida"), ("un barco", "un cohete", "un cohete", "rápido")]
# ("¿Qué pasa si ...?", the result)
HAPPENS = [("se te cae un vaso", "El vaso se puede romper."), ("calientas hielo", "El hielo se derrite."),
           ("no duermes", "Te da sueño."), ("no comes", "Te da hambre."),
           ("llueve", "El suelo se moja."), ("riegas una planta", "La planta crece."),
           ("corres mucho", "Te cansas."), ("congelas agua", "El agua se vuelve hielo."),
           ("tocas el fuego", "Te quemas."), ("se pone el sol", "Se hace de noche."),
           ("mezclas rojo y azul", "Sale morado."), ("mezclas azul y amarillo", "Sale verde."),
           ("hierves agua", "El agua se vuelve vapor."), ("plantas una semilla", "Crece una planta."),
           ("estudias", "Aprendes más.")]
# (animals with their article, where): "Los peces viven en el agua."
WHERE = [("los peces", "en el agua"), ("los pájaros", "en nidos"), ("las abejas", "en colmenas"),
         ("las personas", "en casas"), ("las vacas", "en granjas"), ("los leones", "en la sabana"),
         ("los pingüinos", "en el hielo"), ("los camellos", "en el desierto"), ("los monos", "en los árboles"),
         ("los osos", "en los bosques"), ("las ranas", "cerca del agua"), ("las hormigas", "bajo tierra")]
# (thing with its article, its kind with the article agreeing with the kind): "Sí, el águila es un ave."
KINDS = [("la manzana", "una fruta"), ("la zanahoria", "una verdura"), ("el perro", "un animal"),
         ("la rosa", "una flor"), ("el tren", "un vehículo"), ("el martillo", "una herramienta"),
         ("el rojo", "un color"), ("el tiburón", "un pez"), ("el águila", "un ave"),
         ("el piano", "un instrumento"), ("la leche", "una bebida"), ("París", "una ciudad"),
         ("la mesa", "un mueble"), ("la camisa", "una prenda de ropa"), ("el oro", "un metal"),
         ("la pera", "una fruta"), ("el gato", "un animal"), ("el autobús", "un vehículo"),
         ("el azul", "un color"), ("el tambor", "un instrumento")]
WHY = [("¿Por qué comemos?", "Comemos para tener energía."),
       ("¿Por qué dormimos?", "Dormimos para descansar."),
       ("¿Por qué usamos abrigo?", "Usamos abrigo para no pasar frío."),
       ("¿Por qué el hielo está frío?", "Porque el hielo es agua congelada."),
       ("¿Por qué las plantas necesitan sol?", "Las plantas necesitan sol para crecer."),
       ("¿Por qué bebemos agua?", "Bebemos agua para vivir."),
       ("¿Por qué nos lavamos los dientes?", "Para tener los dientes limpios."),
       ("¿Por qué emigran las aves?", "Las aves emigran para buscar calor."),
       ("¿Por qué nos lavamos las manos?", "Para tener las manos limpias."),
       ("¿Por qué usamos lámparas?", "Usamos lámparas para ver de noche.")]


def level4():
    pairs = []
    for tool, verb, use in USES:
        pairs.append((f"¿Para qué {verb} {tool}?", f"{cap(tool)} {verb} {use}."))
    for one, other, answer in BIGGER:
        pairs.append((f"¿Cuál es más grande, {one} o {other}?", f"{cap(answer)} es más grande."))
    for one, other, answer, fast in FASTER:
        pairs.append((f"¿Cuál es más rápido, {one} o {other}?", f"{cap(answer)} es más {fast}."))
    for event, result in HAPPENS:
        pairs.append((f"¿Qué pasa si {event}?", result))
    for animals, place in WHERE:
        pairs.append((f"¿Dónde viven {animals}?", f"{cap(animals)} viven {place}."))
    for thing, kind in KINDS:
        pairs.append((f"¿{cap(thing)} es {kind}?", f"Sí, {thing} es {kind}."))
    pairs.extend(WHY)
    return pairs


# ---------------------------------------------------------------------------------------------
# Level 5: two turns; the second answer depends on the first.
NAMES = ["Ana", "Luis", "Sara", "Pablo", "Lucía", "Diego", "Elena", "Mateo", "Sofía", "Hugo", "Marta",
         "Daniel", "Carmen", "Pedro"]
# (pet with its article, the pet without it, its name): "Tengo una gata que se llama Luna."
PETS = [("un perro", "perro", "Toby"), ("un gato", "gato", "Félix"), ("un pez", "pez", "Burbuja"),
        ("un pájaro", "pájaro", "Coco"), ("un conejo", "conejo", "Tambor"), ("una perra", "perra", "Lola"),
        ("una gata", "gata", "Luna"), ("una tortuga", "tortuga", "Manuelita")]
# (topic, "favorito"/"favorita" agreeing with it, the favourite with its article)
FAVORITES = [("color", "favorito", "el rojo"), ("color", "favorito", "el verde"),
             ("comida", "favorita", "la pizza"), ("comida", "favorita", "la sopa"),
             ("fruta", "favorita", "la manzana"), ("fruta", "favorita", "la pera"),
             ("animal", "favorito", "el búho"), ("deporte", "favorito", "el tenis"),
             ("juego", "favorito", "el ajedrez"), ("estación", "favorita", "la primavera")]
# (count, things, "Cuántos"/"Cuántas" agreeing with them, how many are lost); at least 2 remain,
# so that the answer is always "Te quedan N cosas.".
HAVE = [(5, "manzanas", "cuántas", 2), (6, "lápices", "cuántos", 1), (4, "libros", "cuántos", 2),
        (6, "huevos", "cuántos", 2), (7, "cartas", "cuántas", 4), (8, "monedas", "cuántas", 5),
        (9, "caramelos", "cuántos", 3), (5, "pelotas", "cuántas", 2), (7, "vasos", "cuántos", 3),
        (6, "gorras", "cuántas", 3), (4, "llaves", "cuántas", 1), (9, "conchas", "cuántas", 2),
        (8, "globos", "cuántos", 4)]
PLACES = ["Madrid", "Lima", "Bogotá", "Sevilla", "Quito", "Buenos Aires", "Montevideo", "Barcelona"]


def level5():
    turns = []
    for name in NAMES:
        turns.append([(f"Me llamo {name}.", f"¡Mucho gusto, {name}!"), ("¿Cómo me llamo?", f"Te llamas {name}.")])
    for pet, animal, name in PETS:
        turns.append([(f"Tengo {pet} que se llama {name}.", f"{name} es un nombre muy bonito."),
                      (f"¿Cómo se llama mi {animal}?", f"Tu {animal} se llama {name}.")])
    for topic, favorite, thing in FAVORITES:
        turns.append([(f"Mi {topic} {favorite} es {thing}.", f"A mí también me gusta {thing}."),
                      (f"¿Cuál es mi {topic} {favorite}?", f"Tu {topic} {favorite} es {thing}.")])
    for count, things, how_many, lost in HAVE:
        assert count - lost >= 2, (count, things, lost)
        turns.append([(f"Tengo {count} {things}.", f"Tienes {count} {things}."),
                      (f"Si pierdo {lost}, ¿{how_many} me quedan?", f"Te quedan {count - lost} {things}.")])
    for place in PLACES:
        turns.append([(f"Vivo en {place}.", f"{place} es una ciudad muy bonita."),
                      ("¿Dónde vivo?", f"Vives en {place}.")])
    return turns


def levels():
    """The five levels; every pair is a list of (question, answer) turns, one turn in levels 1-4."""
    return [[[p] for p in LEVEL1], [[p] for p in level2()], [[p] for p in level3()], [[p] for p in level4()],
            level5()]
