"""Which spelled words stand: the lexicon lookup behind formal challenges and automatic checking.

PALABRA is always a word (the rulebook rules so: it is the game's name). One-letter words other than A and O are
refused before any check (``I`` would be capitalised). With ``short_words="common"`` a two- or three-letter word
must also be on :data:`COMMON_SHORT_WORDS`, an everyday list (every entry is in ENABLE), so that Scrabble-only
words such as QI, ZA or XU do not count; ``"all"`` takes whatever the lexicon takes.
"""

from typing import Any

from games.engine.lexicon import WordList

ALWAYS_A_WORD = "PALABRA"
ONE_LETTER_WORDS = ("A", "O")

COMMON_SHORT_WORDS = frozenset(
    """
    AH AM AN AS AT AX BE BY DO GO HA HE HI IF IN IS IT ME MY NO OF OH ON OR OW OX SO TO UH UM UP US WE YE
    ACE ACT ADD AGE AGO AID AIM AIR ALL AND ANT ANY APE ARE ARK ARM ART ASH ASK ATE AWE AXE BAD BAG BAN BAR BAT
    BAY BED BEE BEG BET BIB BID BIG BIN BIT BOA BOG BOO BOW BOX BOY BRA BUD BUG BUN BUS BUT BUY BYE CAB CAN CAP
    CAR CAT COD COG COT COW CRY CUB CUE CUP CUT DAB DAD DAM DAY DEN DEW DID DIE DIG DIM DIP DOE DOG DON DOT DRY
    DUE DUG DYE EAR EAT EBB EEL EGG EGO ELF ELK ELM EMU END ERA EVE EWE EYE FAN FAR FAT FAX FED FEE FEW FIG FIN
    FIR FIT FIX FLU FLY FOE FOG FOR FOX FRY FUN FUR GAP GAS GEL GEM GET GIN GOD GOT GUM GUN GUT GUY GYM HAD HAM
    HAS HAT HAY HEN HER HEY HID HIM HIP HIS HIT HOE HOG HOP HOT HOW HUB HUE HUG HUM HUT ICE ICY ILL INK INN ION
    IVY JAB JAM JAR JAW JAY JET JOB JOG JOT JOY JUG KEG KEY KID KIN KIT LAB LAD LAG LAP LAW LAY LED LEG LET LID
    LIE LIP LIT LOG LOT LOW MAD MAN MAP MAT MAY MEN MET MIX MOB MOM MOP MUD MUG NAG NAP NET NEW NIL NIP NOD NOR
    NOT NOW NUN NUT OAK OAR OAT ODD OFF OIL OLD ONE OPT ORB ORE OUR OUT OWE OWL OWN PAD PAL PAN PAT PAW PAY PEA
    PEG PEN PEP PER PET PIE PIG PIN PIT PLY POD POP POT PRO PRY PUB PUN PUP PUT RAG RAM RAN RAP RAT RAW RAY RED
    RIB RID RIG RIM RIP ROB ROD ROT ROW RUB RUG RUM RUN RUT RYE SAD SAG SAP SAT SAW SAY SEA SEE SET SEW SHE SHY
    SIN SIP SIR SIT SIX SKI SKY SLY SOB SOD SON SOW SOY SPA SPY SUB SUM SUN TAB TAG TAN TAP TAR TAX TEA TEN THE
    TIE TIN TIP TOE TON TOO TOP TOW TOY TRY TUB TUG TWO URN USE VAN VAT VET VIA VOW WAG WAR WAS WAX WAY WEB WED
    WET WHO WHY WIG WIN WIT WOE WOK WON WOO WOW YAK YAM YES YET YEW YOU ZAP ZIP ZOO
    """.split()
)


def look_up(letters: str, short_words: str, lexicon: WordList) -> dict[str, Any]:
    """The lookup record events carry: the word, its lexicon key, whether the lexicon has it, and the ruling."""
    if letters == ALWAYS_A_WORD:
        return {"word": letters, "key": letters, "in_lexicon": True, "legal": True, "why": "PALABRA is always a word"}
    key = lexicon.normalise(letters)
    found = lexicon.is_word(key)
    if not found:
        return {"word": letters, "key": key, "in_lexicon": False, "legal": False, "why": "not in the word list"}
    if short_words == "common" and len(letters) in (2, 3) and letters not in COMMON_SHORT_WORDS:
        why = "a Scrabble-only short word, not allowed at this table"
        return {"word": letters, "key": key, "in_lexicon": True, "legal": False, "why": why}
    return {"word": letters, "key": key, "in_lexicon": True, "legal": True, "why": "in the word list"}
