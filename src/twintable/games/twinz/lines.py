"""What the terminal Twinz says, in English, French, Korean and Dutch (issue 25).

The language comes from the environment, as a terminal program's does:
``TWINTABLE_LANG``, else ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (``fr_FR.UTF-8`` reads as
French); anything else is English. :func:`say` fills a sentence; a key with ``#one`` and
``#other`` forms takes the plural the number asks for (French counts 0 and 1 as one:
"0 point", "1 point", "2 points"). French sentences never put a player's name after
"de" (they would need "d'" before a vowel): they say "donné par {name}".
"""

from __future__ import annotations

import os
from collections.abc import Mapping

LANGUAGES = ("en", "fr", "ko", "nl")

_EN = {
    "refused.same_word": "{clue} is {word} (accents and case aside)",
    "refused.inflection": "{clue} is a form of {word}",
    "refused.contains": "{word} is inside {clue}",
    "refused.family": "{clue} is of the family of {word}",
    "shell.you": "Player {seat} (you)", "shell.bot": "Bot {seat} ({level})",
    "shell.header#one": "{game} — seed {seed}, {n} player.",
    "shell.header#other": "{game} — seed {seed}, {n} players.",
    "shell.final": "Final scores: {scores}", "shell.left": "game left before the end",
    "shell.saved_so_far": "Replay of the game so far saved to {path}",
    "shell.saved": "Replay saved to {path}",
    "level.beginner": "Beginner", "level.easy": "Easy", "level.medium": "Medium",
    "level.hard": "Hard", "level.expert": "Expert",
    "intro": "Get the others to find your mystery word with one clue word, given at the same "
             "time as your partner's; guess the others' words before the bots do. While "
             "people guess, 'contest 1' or 'contest 2' disputes a clue (no real word, the "
             "mystery word's root...), and 'vote yes' or 'vote no' settles a contest. "
             "Most points wins.",
    "col.player": "player", "col.points": "points", "col.cards": "cards", "duo": " (duo)",
    "state#one": "round {round}, attempt {attempt}, {n} card in the pile",
    "state#other": "round {round}, attempt {attempt}, {n} cards in the pile",
    "mystery": "your mystery word: [bold]{word}[/]", "clues": "clues: {clues}",
    "nothing": "(nothing)", "guesses": "guesses: {guesses}", "a_guess": "(a guess)",
    "takes_card": "{name} takes the card",
    "round_started": "round {round}: {a} and {b} give clues",
    "card_ready": "the duo may take the next card",
    "countdown": "attempt {attempt}: the duo has {s} s for its clues",
    "clue_given": "{name} has a clue",
    "penalised#one": "{name} loses 1 point: {reasons}",
    "penalised#other": "{name} loses {n} points: {reasons}",
    "guess_in": "{name} makes a guess", "guessed_wrong": "{name} guesses {word}: wrong",
    "contested": "{name} contests the clue {clue} given by {member}: vote!",
    "voted": "{name} votes",
    "upheld": "the contest is upheld: {member} loses 1 point and the duo stops",
    "dismissed": "the vote lets the clue given by {member} stand",
    "attempt_failed": "nobody found it: a second attempt with new clues",
    "round_over": "the word was {word} ({reason}); won by {winners}", "nobody": "nobody",
    "game_over": "game over",
    "reason.found": "found", "reason.timeout": "time ran out",
    "reason.all_wrong": "every guess was wrong",
    "reason.mystery_word": "a clue was on the mystery word's root",
    "reason.contest": "a contested clue was upheld",
    "penalty.late": "late", "penalty.missing": "no clue", "penalty.reused": "clue already used",
    "penalty.mystery_root": "the mystery word or its root",
    "penalty.same_clue": "same clue as the partner",
    "prompt.draw": "[bold]Your duo's turn[/]: press Enter to take the card",
    "prompt.pause": "the next card comes in a moment",
    "prompt.clue": "[bold]Your clue[/], one word: the {s} s countdown starts in a moment!",
    "prompt.vote": "[bold]Vote[/]: 'vote yes' upholds the contest, 'vote no' lets the clue "
                   "stand",
    "prompt.guess": "[bold]Your guess[/], one word ({s} s; 'contest 1' or 'contest 2' "
                    "disputes a clue)",
    "wait.duo": "wait: the duo is taking its card",
    "help.contest": "contest 1 or contest 2 (or the clue itself)",
    "help.vote": "vote yes (the clue breaks the rules) or vote no",
    "wait.others": "wait for the others",
    "error.draw.too_soon": "the last round's result is still on show: wait a moment",
    "error.clue.too_late": "clues are closed for this attempt",
    "error.clue.not_one_word": "a clue is one single word",
    "error.clue.too_long": "a clue has at most 30 letters",
    "error.guess.not_now": "wait for the clues",
    "error.guess.not_one_word": "a guess is one single word",
    "error.guess.too_long": "a guess has at most 30 letters",
    "error.guess.already": "one guess per attempt",
    "error.contest.not_now": "clues can be contested while people guess",
    "error.contest.open": "a contest is already being voted on",
    "error.contest.settled": "the vote let that clue stand",
    "error.vote.no_contest": "nothing to vote on", "error.vote.already": "you voted",
}

_FR = {
    "refused.same_word": "{clue}, c'est {word} (accents et majuscules mis à part)",
    "refused.inflection": "{clue} est une forme de {word}",
    "refused.contains": "{clue} contient {word}",
    "refused.family": "{clue} est de la famille de {word}",
    "shell.you": "Joueur {seat} (vous)", "shell.bot": "Robot {seat} ({level})",
    "shell.header#one": "{game} — graine {seed}, {n} joueur.",
    "shell.header#other": "{game} — graine {seed}, {n} joueurs.",
    "shell.final": "Scores finaux : {scores}", "shell.left": "partie quittée avant la fin",
    "shell.saved_so_far": "Rejeu de la partie jusqu'ici enregistré dans {path}",
    "shell.saved": "Rejeu enregistré dans {path}",
    "level.beginner": "Débutant", "level.easy": "Facile", "level.medium": "Moyen",
    "level.hard": "Difficile", "level.expert": "Expert",
    "intro": "Faites trouver votre mot mystère aux autres avec un seul mot d'indice, donné en "
             "même temps que celui de votre partenaire ; devinez les mots des autres avant "
             "les robots. Pendant que les autres devinent, « conteste 1 » ou « conteste 2 » "
             "conteste un indice (pas un vrai mot, la racine du mot mystère…), et « vote oui » "
             "ou « vote non » tranche une contestation. Le plus de points l'emporte.",
    "col.player": "joueur", "col.points": "points", "col.cards": "cartes", "duo": " (duo)",
    "state#one": "manche {round}, essai {attempt}, {n} carte dans la pioche",
    "state#other": "manche {round}, essai {attempt}, {n} cartes dans la pioche",
    "mystery": "votre mot mystère : [bold]{word}[/]", "clues": "indices : {clues}",
    "nothing": "(rien)", "guesses": "propositions : {guesses}", "a_guess": "(une proposition)",
    "takes_card": "{name} prend la carte",
    "round_started": "manche {round} : {a} et {b} donnent les indices",
    "card_ready": "le duo peut prendre la carte suivante",
    "countdown": "essai {attempt} : le duo a {s} s pour ses indices",
    "clue_given": "{name} a son indice",
    "penalised#one": "{name} perd 1 point : {reasons}",
    "penalised#other": "{name} perd {n} points : {reasons}",
    "guess_in": "{name} fait une proposition", "guessed_wrong": "{name} propose {word} : raté",
    "contested": "{name} conteste l'indice {clue}, donné par {member} : votez !",
    "voted": "{name} a voté",
    "upheld": "contestation retenue : {member} perd 1 point, le duo s'arrête",
    "dismissed": "contestation rejetée : l'indice donné par {member} est maintenu",
    "attempt_failed": "personne n'a trouvé : deuxième essai avec de nouveaux indices",
    "round_over": "le mot était {word} ({reason}) ; gagné par {winners}", "nobody": "personne",
    "game_over": "partie terminée",
    "reason.found": "trouvé", "reason.timeout": "temps écoulé",
    "reason.all_wrong": "toutes les propositions étaient fausses",
    "reason.mystery_word": "un indice reprenait le mot mystère ou sa racine",
    "reason.contest": "une contestation a été retenue",
    "penalty.late": "en retard", "penalty.missing": "pas d'indice",
    "penalty.reused": "indice déjà utilisé",
    "penalty.mystery_root": "le mot mystère ou sa racine",
    "penalty.same_clue": "même indice que le partenaire",
    "prompt.draw": "[bold]À votre duo[/] : appuyez sur Entrée pour prendre la carte",
    "prompt.pause": "la carte suivante arrive dans un instant",
    "prompt.clue": "[bold]Votre indice[/], un seul mot : le compte à rebours de {s} s part "
                   "dans un instant !",
    "prompt.vote": "[bold]Votez[/] : « vote oui » soutient la contestation, « vote non » "
                   "maintient l'indice",
    "prompt.guess": "[bold]Votre proposition[/], un seul mot ({s} s ; « conteste 1 » ou "
                    "« conteste 2 » conteste un indice)",
    "wait.duo": "patientez : le duo prend sa carte",
    "help.contest": "conteste 1 ou conteste 2 (ou l'indice lui-même)",
    "help.vote": "vote oui (l'indice enfreint les règles) ou vote non",
    "wait.others": "attendez les autres",
    "error.draw.too_soon": "le résultat de la manche est encore affiché : un instant",
    "error.clue.too_late": "les indices sont clos pour cet essai",
    "error.clue.not_one_word": "un indice tient en un seul mot",
    "error.clue.too_long": "un indice a 30 lettres au plus",
    "error.guess.not_now": "attendez les indices",
    "error.guess.not_one_word": "une proposition tient en un seul mot",
    "error.guess.too_long": "une proposition a 30 lettres au plus",
    "error.guess.already": "une proposition par essai",
    "error.contest.not_now": "on conteste un indice pendant que les autres devinent",
    "error.contest.open": "une contestation est déjà au vote",
    "error.contest.settled": "le vote a maintenu cet indice",
    "error.vote.no_contest": "rien à voter", "error.vote.already": "vous avez voté",
}

_KO = {
    "refused.same_word": "{clue}는 악센트와 대소문자를 빼면 {word}입니다",
    "refused.inflection": "{clue}는 {word}의 활용형입니다",
    "refused.contains": "{clue} 안에 {word}가 들어 있습니다",
    "refused.family": "{clue}는 {word}와 같은 어족입니다",
    "shell.you": "플레이어 {seat} (나)", "shell.bot": "봇 {seat} ({level})",
    "shell.header#one": "{game} — 시드 {seed}, 플레이어 {n}명.",
    "shell.header#other": "{game} — 시드 {seed}, 플레이어 {n}명.",
    "shell.final": "최종 점수: {scores}", "shell.left": "끝나기 전에 게임을 나갔습니다",
    "shell.saved_so_far": "지금까지의 리플레이를 {path}에 저장했습니다",
    "shell.saved": "리플레이를 {path}에 저장했습니다",
    "level.beginner": "입문", "level.easy": "쉬움", "level.medium": "보통",
    "level.hard": "어려움", "level.expert": "전문가",
    "intro": "짝과 동시에 힌트 한 단어를 내서 다른 사람들이 비밀 단어를 맞히게 하세요. 다른 "
             "사람의 단어는 봇보다 먼저 맞히세요. 추측하는 동안 '이의 1'이나 '이의 2'로 힌트에 "
             "이의를 제기하고(실제 단어가 아님, 비밀 단어의 어근…), '투표 예'나 '투표 아니오'로 "
             "이의를 결정합니다. 점수가 가장 높은 사람이 이깁니다.",
    "col.player": "플레이어", "col.points": "점수", "col.cards": "카드", "duo": " (듀오)",
    "state#other": "{round}라운드, {attempt}번째 시도, 더미에 카드 {n}장",
    "mystery": "비밀 단어: [bold]{word}[/]", "clues": "힌트: {clues}",
    "nothing": "(없음)", "guesses": "추측: {guesses}", "a_guess": "(추측 하나)",
    "takes_card": "{name} 님이 카드를 가져갑니다",
    "round_started": "{round}라운드: {a} 님과 {b} 님이 힌트를 줍니다",
    "card_ready": "듀오가 다음 카드를 가져갈 수 있습니다",
    "countdown": "{attempt}번째 시도: 듀오에게 힌트까지 {s}초가 있습니다",
    "clue_given": "{name} 님이 힌트를 정했습니다",
    "penalised#other": "{name} 님 {n}점 감점: {reasons}",
    "guess_in": "{name} 님이 추측했습니다", "guessed_wrong": "{name} 님의 추측 {word}: 오답",
    "contested": "{name} 님이 {member} 님의 힌트 {clue}에 이의를 제기합니다: 투표하세요!",
    "voted": "{name} 님이 투표했습니다",
    "upheld": "이의가 받아들여졌습니다: {member} 님 1점 감점, 듀오 차례가 끝납니다",
    "dismissed": "투표 결과 {member} 님의 힌트가 유지됩니다",
    "attempt_failed": "아무도 맞히지 못했습니다: 새 힌트로 두 번째 시도",
    "round_over": "단어는 {word}였습니다 ({reason}). 이긴 사람: {winners}", "nobody": "없음",
    "game_over": "게임 끝",
    "reason.found": "맞힘", "reason.timeout": "시간 초과",
    "reason.all_wrong": "모든 추측이 틀림",
    "reason.mystery_word": "힌트가 비밀 단어의 어근이었음",
    "reason.contest": "이의가 받아들여짐",
    "penalty.late": "늦음", "penalty.missing": "힌트 없음", "penalty.reused": "이미 쓴 힌트",
    "penalty.mystery_root": "비밀 단어 또는 그 어근",
    "penalty.same_clue": "짝과 같은 힌트",
    "prompt.draw": "[bold]당신의 듀오 차례[/]: Enter를 눌러 카드를 가져가세요",
    "prompt.pause": "잠시 후 다음 카드",
    "prompt.clue": "[bold]당신의 힌트[/], 한 단어: 곧 {s}초 카운트다운이 시작됩니다!",
    "prompt.vote": "[bold]투표[/]: '투표 예'는 이의를 받아들이고, '투표 아니오'는 힌트를 "
                   "유지합니다",
    "prompt.guess": "[bold]당신의 추측[/], 한 단어 ({s}초, '이의 1'이나 '이의 2'로 힌트에 "
                    "이의 제기)",
    "wait.duo": "기다리세요: 듀오가 카드를 가져가는 중입니다",
    "help.contest": "이의 1 또는 이의 2 (또는 힌트 단어)",
    "help.vote": "투표 예 (힌트가 규칙 위반) 또는 투표 아니오",
    "wait.others": "다른 사람들을 기다리세요",
    "error.draw.too_soon": "라운드 결과가 아직 화면에 있습니다: 잠시만요",
    "error.clue.too_late": "이번 시도의 힌트는 마감되었습니다",
    "error.clue.not_one_word": "힌트는 한 단어입니다",
    "error.clue.too_long": "힌트는 30글자까지입니다",
    "error.guess.not_now": "힌트를 기다리세요",
    "error.guess.not_one_word": "추측은 한 단어입니다",
    "error.guess.too_long": "추측은 30글자까지입니다",
    "error.guess.already": "시도마다 추측은 한 번입니다",
    "error.contest.not_now": "이의 제기는 추측하는 동안에만 할 수 있습니다",
    "error.contest.open": "이미 이의에 대한 투표가 진행 중입니다",
    "error.contest.settled": "투표로 그 힌트는 유지되었습니다",
    "error.vote.no_contest": "투표할 것이 없습니다", "error.vote.already": "이미 투표했습니다",
}

_NL = {
    "refused.same_word": "{clue} is {word} (accenten en hoofdletters terzijde)",
    "refused.inflection": "{clue} is een vorm van {word}",
    "refused.contains": "{word} zit in {clue}",
    "refused.family": "{clue} hoort bij de woordfamilie van {word}",
    "shell.you": "Speler {seat} (jij)", "shell.bot": "Bot {seat} ({level})",
    "shell.header#one": "{game} — seed {seed}, {n} speler.",
    "shell.header#other": "{game} — seed {seed}, {n} spelers.",
    "shell.final": "Eindstand: {scores}", "shell.left": "spel verlaten voor het einde",
    "shell.saved_so_far": "Herhaling van het spel tot nu opgeslagen in {path}",
    "shell.saved": "Herhaling opgeslagen in {path}",
    "level.beginner": "Beginner", "level.easy": "Makkelijk", "level.medium": "Gemiddeld",
    "level.hard": "Moeilijk", "level.expert": "Expert",
    "intro": "Laat de anderen je geheime woord raden met één hintwoord, tegelijk met dat van "
             "je partner gegeven; raad de woorden van de anderen voor de bots. Terwijl er "
             "geraden wordt, betwist 'betwist 1' of 'betwist 2' een hint (geen echt woord, de "
             "stam van het geheime woord…), en 'stem ja' of 'stem nee' beslist erover. "
             "De meeste punten winnen.",
    "col.player": "speler", "col.points": "punten", "col.cards": "kaarten", "duo": " (duo)",
    "state#one": "ronde {round}, poging {attempt}, {n} kaart op de stapel",
    "state#other": "ronde {round}, poging {attempt}, {n} kaarten op de stapel",
    "mystery": "je geheime woord: [bold]{word}[/]", "clues": "hints: {clues}",
    "nothing": "(niets)", "guesses": "gokken: {guesses}", "a_guess": "(een gok)",
    "takes_card": "{name} pakt de kaart",
    "round_started": "ronde {round}: {a} en {b} geven hints",
    "card_ready": "het duo mag de volgende kaart pakken",
    "countdown": "poging {attempt}: het duo heeft {s} s voor zijn hints",
    "clue_given": "{name} heeft een hint",
    "penalised#one": "{name} verliest 1 punt: {reasons}",
    "penalised#other": "{name} verliest {n} punten: {reasons}",
    "guess_in": "{name} doet een gok", "guessed_wrong": "{name} gokt {word}: fout",
    "contested": "{name} betwist de hint {clue} van {member}: stem!",
    "voted": "{name} heeft gestemd",
    "upheld": "het bezwaar is aanvaard: {member} verliest 1 punt en het duo stopt",
    "dismissed": "de stemming laat de hint van {member} staan",
    "attempt_failed": "niemand heeft het: een tweede poging met nieuwe hints",
    "round_over": "het woord was {word} ({reason}); gewonnen door {winners}",
    "nobody": "niemand", "game_over": "einde van het spel",
    "reason.found": "geraden", "reason.timeout": "de tijd was om",
    "reason.all_wrong": "alle gokken waren fout",
    "reason.mystery_word": "een hint had de stam van het geheime woord",
    "reason.contest": "een betwiste hint is afgekeurd",
    "penalty.late": "te laat", "penalty.missing": "geen hint",
    "penalty.reused": "hint al gebruikt",
    "penalty.mystery_root": "het geheime woord of zijn stam",
    "penalty.same_clue": "dezelfde hint als de partner",
    "prompt.draw": "[bold]Jullie beurt[/]: druk op Enter om de kaart te pakken",
    "prompt.pause": "zo meteen de volgende kaart",
    "prompt.clue": "[bold]Je hint[/], één woord: de aftelling van {s} s begint zo meteen!",
    "prompt.vote": "[bold]Stem[/]: 'stem ja' keurt de hint af, 'stem nee' laat hem staan",
    "prompt.guess": "[bold]Je gok[/], één woord ({s} s; 'betwist 1' of 'betwist 2' betwist "
                    "een hint)",
    "wait.duo": "wacht: het duo pakt zijn kaart",
    "help.contest": "betwist 1 of betwist 2 (of de hint zelf)",
    "help.vote": "stem ja (de hint breekt de regels) of stem nee",
    "wait.others": "wacht op de anderen",
    "error.draw.too_soon": "de uitslag van de ronde staat nog in beeld: even geduld",
    "error.clue.too_late": "de hints voor deze poging zijn gesloten",
    "error.clue.not_one_word": "een hint is één enkel woord",
    "error.clue.too_long": "een hint heeft hooguit 30 letters",
    "error.guess.not_now": "wacht op de hints",
    "error.guess.not_one_word": "een gok is één enkel woord",
    "error.guess.too_long": "een gok heeft hooguit 30 letters",
    "error.guess.already": "één gok per poging",
    "error.contest.not_now": "hints betwist je terwijl er geraden wordt",
    "error.contest.open": "er wordt al over een bezwaar gestemd",
    "error.contest.settled": "de stemming liet die hint staan",
    "error.vote.no_contest": "er is niets om over te stemmen",
    "error.vote.already": "je hebt gestemd",
}

CATALOGUES: Mapping[str, Mapping[str, str]] = {"en": _EN, "fr": _FR, "ko": _KO, "nl": _NL}

#: The commands a person types, in every language (a line of two words or more is never
#: a guess, so these cannot shadow one).
CONTEST_WORDS = ("contest", "conteste", "contester", "이의", "betwist")
VOTE_WORDS = ("vote", "voter", "투표", "stem")
YES = ("yes", "y", "oui", "o", "uphold", "예", "네", "ja", "j")
NO = ("no", "n", "non", "dismiss", "아니오", "아니요", "nee")


def language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, among :data:`LANGUAGES`; else English."""
    env = os.environ if environ is None else environ
    for name in ("TWINTABLE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = value.split(".")[0].split("_")[0].split("-")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def _plural(lang: str, n: int) -> str:
    if lang == "ko":
        return "other"
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


def say(lang: str, key: str, **values: object) -> str:
    """The sentence ``key`` in ``lang`` (English where it has none), filled with
    ``values``; ``n`` picks the plural form of a key that has them."""
    catalogue = CATALOGUES.get(lang, _EN)
    if "n" in values and isinstance(values["n"], int):
        form = f"{key}#{_plural(lang, values['n'])}"
        text = catalogue.get(form) or catalogue.get(f"{key}#other") or _EN.get(form)
        if text is not None:
            return text.format(**values)
    return (catalogue.get(key) or _EN[key]).format(**values)
