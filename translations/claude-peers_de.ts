<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>App::ActivityNotifications</name>
    <message>
        <source>OpenCode %1</source>
        <translation>OpenCode %1</translation>
    </message>
    <message>
        <source>%1 stopped with an error</source>
        <translation>%1 wurde mit einem Fehler beendet</translation>
    </message>
    <message>
        <source>%1 finished</source>
        <translation>%1 ist fertig</translation>
    </message>
    <message>
        <source>Its turn in %1 is over.</source>
        <extracomment>%1 is the session&apos;s folder</extracomment>
        <translation>Sein Durchgang in %1 ist beendet.</translation>
    </message>
    <message>
        <source>A broker asks to pair with this machine</source>
        <translation>Ein Broker möchte sich mit diesem Rechner koppeln</translation>
    </message>
    <message>
        <source>%1 asks to pair with this machine</source>
        <translation>%1 möchte sich mit diesem Rechner koppeln</translation>
    </message>
    <message>
        <source>Compare the codes on the Federation page before you accept.</source>
        <translation>Vergleichen Sie die Codes auf der Seite „Föderation“, bevor Sie annehmen.</translation>
    </message>
    <message>
        <source>From %1. Compare the codes on the Federation page before you accept.</source>
        <translation>Von %1. Vergleichen Sie die Codes auf der Seite „Föderation“, bevor Sie annehmen.</translation>
    </message>
    <message>
        <source>Scheduled run of %1 failed</source>
        <translation>Geplanter Lauf von %1 fehlgeschlagen</translation>
    </message>
    <message>
        <source>See the Schedules page for its error.</source>
        <translation>Den Fehler zeigt die Seite „Zeitpläne“.</translation>
    </message>
</context>
<context>
    <name>App::AttemptsModel</name>
    <message>
        <source>refused</source>
        <translation>abgewiesen</translation>
    </message>
    <message>
        <source>pairing accepted</source>
        <translation>Kopplung angenommen</translation>
    </message>
    <message>
        <source>pairing rejected</source>
        <translation>Kopplung abgelehnt</translation>
    </message>
    <message>
        <source>revoked</source>
        <translation>widerrufen</translation>
    </message>
    <message>
        <source>federation key rotated</source>
        <translation>Föderationsschlüssel erneuert</translation>
    </message>
    <message>
        <source>%1 answered %2 on %3</source>
        <translation>%1 hat %2 auf %3 beantwortet</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Was</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Machine (as it said)</source>
        <translation>Rechner (eigene Angabe)</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Fingerabdruck</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Times</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>joined with a join URL</source>
        <translation>mit einer Beitritts-URL beigetreten</translation>
    </message>
    <message>
        <source>no longer ignored</source>
        <translation>nicht mehr ignoriert</translation>
    </message>
</context>
<context>
    <name>App::AttentionText</name>
    <message>
        <source>needs you</source>
        <extracomment>a session&apos;s state: it waits for the user (a permission, a question)</extracomment>
        <translation>wartet auf Sie</translation>
    </message>
    <message>
        <source>busy</source>
        <extracomment>a session&apos;s state: it is working on a prompt</extracomment>
        <translation>beschäftigt</translation>
    </message>
    <message>
        <source>idle</source>
        <extracomment>a session&apos;s state: it waits for the next prompt</extracomment>
        <translation>im Leerlauf</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <extracomment>time in a state, abbreviated: seconds</extracomment>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <extracomment>time in a state, abbreviated: minutes</extracomment>
        <translation>
            <numerusform>%n min</numerusform>
            <numerusform>%n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <extracomment>time in a state, abbreviated: hours</extracomment>
        <translation>
            <numerusform>%n h</numerusform>
            <numerusform>%n h</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <extracomment>time in a state, abbreviated: hours and minutes</extracomment>
        <translation>%1 h %2 min</translation>
    </message>
    <message numerus="yes">
        <source>%n d</source>
        <extracomment>time in a state, abbreviated: days</extracomment>
        <translation>
            <numerusform>%n Tg.</numerusform>
            <numerusform>%n Tg.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <extracomment>a tray menu entry: session name — state · time in state</extracomment>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 — %2 · %3</source>
        <translation>%1 — %2 · %3</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <extracomment>a session&apos;s state · time in that state</extracomment>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>App::ControlCalls</name>
    <message>
        <source>No broker client: the control service cannot be reached.</source>
        <translation>Kein Broker-Client: der Steuerdienst ist nicht erreichbar.</translation>
    </message>
    <message>
        <source>The forked session %1 remains available in %2.</source>
        <translation>Die abgezweigte Sitzung %1 bleibt in %2 verfügbar.</translation>
    </message>
    <message>
        <source>Session %1 in %2 was left as it is.</source>
        <translation>Sitzung %1 in %2 wurde unverändert gelassen.</translation>
    </message>
</context>
<context>
    <name>App::FederationPage</name>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>Dieser Rechner</translation>
    </message>
    <message>
        <source>Federation on (brokers on other machines can pair and relay)</source>
        <translation>Föderation an (Broker auf anderen Rechnern können sich koppeln und weiterleiten)</translation>
    </message>
    <message>
        <source>Name on the network:</source>
        <translation>Name im Netzwerk:</translation>
    </message>
    <message>
        <source>It contains the federation key: give it only to your own machines.</source>
        <translation>Sie enthält den Föderationsschlüssel: geben Sie sie nur Ihren eigenen Rechnern.</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>Join URL:</source>
        <translation>Beitritts-URL:</translation>
    </message>
    <message>
        <source>Certificate fingerprint:</source>
        <translation>Zertifikat-Fingerabdruck:</translation>
    </message>
    <message>
        <source>Create a one-time pairing code</source>
        <translation>Einmal-Kopplungscode erzeugen</translation>
    </message>
    <message>
        <source>Pairing code:</source>
        <translation>Kopplungscode:</translation>
    </message>
    <message>
        <source>The command the other machine runs, with this one-time code</source>
        <translation>Der Befehl, den der andere Rechner ausführt, mit diesem Einmal-Code</translation>
    </message>
    <message>
        <source>Pairing requests</source>
        <translation>Kopplungsanfragen</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>Warnungen</translation>
    </message>
    <message>
        <source>Paired machines</source>
        <translation>Gekoppelte Rechner</translation>
    </message>
    <message>
        <source>Revoke…</source>
        <translation>Widerrufen…</translation>
    </message>
    <message>
        <source>Rotate the federation key…</source>
        <translation>Föderationsschlüssel erneuern…</translation>
    </message>
    <message>
        <source>Refused connection attempts and pairing decisions</source>
        <translation>Abgewiesene Verbindungsversuche und Kopplungsentscheidungen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Revoke %1? It is disconnected, its pin and address are removed, and this machine refuses it until you pair it again.</source>
        <translation>%1 widerrufen? Er wird getrennt, seine Anheftung und Adresse werden entfernt, und dieser Rechner weist ihn ab, bis Sie ihn erneut koppeln.</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>Make a new federation key? Every paired machine loses its link until it gets the new key (pair it again, or join with the new URL).</source>
        <translation>Einen neuen Föderationsschlüssel erzeugen? Jeder gekoppelte Rechner verliert seine Verbindung, bis er den neuen Schlüssel hat (erneut koppeln oder mit der neuen URL beitreten).</translation>
    </message>
    <message>
        <source>Rotate the key</source>
        <translation>Schlüssel erneuern</translation>
    </message>
    <message>
        <source>Asking the broker…</source>
        <translation>Broker wird gefragt…</translation>
    </message>
    <message>
        <source>On: listening on port %1 as %2.</source>
        <translation>An: lauscht auf Port %1 als %2.</translation>
    </message>
    <message>
        <source>Off: this broker serves this machine only.</source>
        <translation>Aus: dieser Broker bedient nur diesen Rechner.</translation>
    </message>
    <message>
        <source>The change waits for a broker restart: claude-peers restart</source>
        <translation>Die Änderung wartet auf einen Neustart des Brokers: claude-peers restart</translation>
    </message>
    <message>
        <source>%1 (expired)</source>
        <translation>%1 (abgelaufen)</translation>
    </message>
    <message>
        <source>Create a new code to pair another machine.</source>
        <translation>Erzeugen Sie einen neuen Code, um einen weiteren Rechner zu koppeln.</translation>
    </message>
    <message>
        <source>valid for %1:%2 — one use. On the other machine: %3</source>
        <translation>gültig für %1:%2 — einmalig. Auf dem anderen Rechner: %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; at %2 was found on the network and is not paired.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; unter %2 wurde im Netzwerk gefunden und ist nicht gekoppelt.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; at %2 asks to pair with this machine.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; unter %2 möchte sich mit diesem Rechner koppeln.</translation>
    </message>
    <message>
        <source>Its certificate: %1</source>
        <translation>Sein Zertifikat: %1</translation>
    </message>
    <message>
        <source>Accept %1? Only if you started this pairing yourself.</source>
        <translation>%1 annehmen? Nur, wenn Sie diese Kopplung selbst begonnen haben.</translation>
    </message>
    <message>
        <source>Does %1 show the same code, %2? Accept only if the two codes match; if they differ, someone may sit between the machines.</source>
        <translation>Zeigt %1 denselben Code, %2? Nehmen Sie nur an, wenn beide Codes übereinstimmen; weichen sie ab, sitzt vielleicht jemand zwischen den Rechnern.</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>Annehmen</translation>
    </message>
    <message>
        <source>The codes match — accept</source>
        <translation>Die Codes stimmen überein — annehmen</translation>
    </message>
    <message>
        <source>They differ — reject</source>
        <translation>Sie weichen ab — ablehnen</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Accept…</source>
        <translation>Annehmen…</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>Ignorieren</translation>
    </message>
    <message>
        <source>Reject it: the other machine is told no</source>
        <translation>Ablehnen: der andere Rechner erhält eine Absage</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Ausblenden</translation>
    </message>
    <message>
        <source>Hide this card; the request stays open (claude-peers federation pending)</source>
        <translation>Diese Karte ausblenden; die Anfrage bleibt offen (claude-peers federation pending)</translation>
    </message>
    <message>
        <source>%1 (%2): accepted</source>
        <translation>%1 (%2): angenommen</translation>
    </message>
    <message>
        <source>%1 (%2): rejected</source>
        <translation>%1 (%2): abgelehnt</translation>
    </message>
    <message>
        <source>No pairing requests. Create a code above, then run the join command on the other machine.</source>
        <translation>Keine Kopplungsanfragen. Erzeugen Sie oben einen Code und führen Sie dann den Beitrittsbefehl auf dem anderen Rechner aus.</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>Behebung:</translation>
    </message>
    <message>
        <source>Rotate now…</source>
        <translation>Jetzt erneuern…</translation>
    </message>
    <message>
        <source>None.</source>
        <translation>Keine.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>none</source>
        <comment>no pairing code</comment>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Ignored machines</source>
        <translation>Ignorierte Rechner</translation>
    </message>
    <message>
        <source>Stop ignoring</source>
        <translation>Nicht mehr ignorieren</translation>
    </message>
</context>
<context>
    <name>App::FederationPresenter</name>
    <message>
        <source>Saved in the config, but the broker did not re-read it (%1). Restart it: claude-peers restart</source>
        <translation>In der Konfiguration gespeichert, aber der Broker hat sie nicht neu gelesen (%1). Starten Sie ihn neu: claude-peers restart</translation>
    </message>
    <message>
        <source>Federation is on: the federation port is open.</source>
        <translation>Föderation ist an: der Föderationsport ist offen.</translation>
    </message>
    <message>
        <source>Federation is off: its port is closed; remotes and pins are kept.</source>
        <translation>Föderation ist aus: ihr Port ist geschlossen; entfernte Broker und Anheftungen bleiben erhalten.</translation>
    </message>
    <message>
        <source>Pairing code %1: on the other machine run %2</source>
        <translation>Kopplungscode %1: auf dem anderen Rechner %2 ausführen</translation>
    </message>
    <message>
        <source>Compare the codes first</source>
        <translation>Vergleichen Sie zuerst die Codes</translation>
    </message>
    <message>
        <source>Accepted %1: its certificate is pinned; it receives the federation key and connects.</source>
        <translation>%1 angenommen: sein Zertifikat ist angeheftet; er erhält den Föderationsschlüssel und verbindet sich.</translation>
    </message>
    <message>
        <source>Rejected the pairing request of %1; nothing was shared.</source>
        <translation>Kopplungsanfrage von %1 abgelehnt; nichts wurde geteilt.</translation>
    </message>
    <message>
        <source>Revoked %1 (%2:%3): disconnected, its pin removed; it is refused until paired again. It still knows the federation key: rotate the key if it may misuse it.</source>
        <translation>%1 (%2:%3) widerrufen: getrennt, Anheftung entfernt; er wird abgewiesen, bis er erneut gekoppelt ist. Er kennt den Föderationsschlüssel noch: erneuern Sie den Schlüssel, falls er ihn missbrauchen könnte.</translation>
    </message>
    <message>
        <source>New federation key, kept in %1. Paired machines need it: pair them again (a new code) or give them the new join URL.</source>
        <translation>Neuer Föderationsschlüssel, gespeichert in %1. Gekoppelte Rechner brauchen ihn: koppeln Sie sie erneut (neuer Code) oder geben Sie ihnen die neue Beitritts-URL.</translation>
    </message>
    <message>
        <source>Saved in the config, but the broker keeps federation on: CLAUDE_PEERS_FEDERATION_ENABLED in its environment wins over the config. Change it there, then run: claude-peers restart</source>
        <translation>In der Konfiguration gespeichert, aber der Broker lässt die Föderation an: CLAUDE_PEERS_FEDERATION_ENABLED in seiner Umgebung hat Vorrang vor der Konfiguration. Ändern Sie es dort und führen Sie dann aus: claude-peers restart</translation>
    </message>
    <message>
        <source>Saved in the config, but the broker keeps federation off: CLAUDE_PEERS_FEDERATION_ENABLED in its environment wins over the config. Change it there, then run: claude-peers restart</source>
        <translation>In der Konfiguration gespeichert, aber der Broker lässt die Föderation aus: CLAUDE_PEERS_FEDERATION_ENABLED in seiner Umgebung hat Vorrang vor der Konfiguration. Ändern Sie es dort und führen Sie dann aus: claude-peers restart</translation>
    </message>
    <message>
        <source>No longer ignored: when this machine is found on the network again, it is offered for pairing.</source>
        <translation>Nicht mehr ignoriert: Wird dieser Rechner wieder im Netzwerk gefunden, wird er zum Koppeln angeboten.</translation>
    </message>
</context>
<context>
    <name>App::FirstRunWizard</name>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Welcome to claude-peers</source>
        <translation>Willkommen bei claude-peers</translation>
    </message>
    <message>
        <source>Where your secrets live</source>
        <translation>Wo Ihre Geheimnisse liegen</translation>
    </message>
    <message>
        <source>The broker&apos;s token lets sessions on this machine talk to it. It belongs in the OS keychain; where none answers, a file only you can read holds it.</source>
        <translation>Mit dem Token des Brokers können Sitzungen auf diesem Rechner mit ihm sprechen. Es gehört in den Schlüsselbund des Systems; antwortet keiner, liegt es in einer Datei, die nur Sie lesen können.</translation>
    </message>
    <message>
        <source>Asking the broker…</source>
        <translation>Broker wird gefragt…</translation>
    </message>
    <message>
        <source>Ask the keychain again</source>
        <translation>Schlüsselbund erneut fragen</translation>
    </message>
    <message>
        <source>The broker moves the token into the keychain as soon as one answers (for example after you unlocked it); this has it re-read its secrets now.</source>
        <translation>Der Broker verschiebt das Token in den Schlüsselbund, sobald einer antwortet (zum Beispiel nachdem Sie ihn entsperrt haben); hiermit liest er seine Geheimnisse jetzt neu ein.</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>Beim Anmelden starten</translation>
    </message>
    <message>
        <source>The tray hosts the broker. Started at login, it is there before your first session asks for it. (Also in Settings, and `claude-peers autostart`.)</source>
        <translation>Die Tray-App betreibt den Broker. Beim Anmelden gestartet, ist er da, bevor Ihre erste Sitzung ihn braucht. (Auch in den Einstellungen und mit `claude-peers autostart`.)</translation>
    </message>
    <message>
        <source>Start claude-peers at login</source>
        <translation>claude-peers beim Anmelden starten</translation>
    </message>
    <message>
        <source>Start claude-peers at login (it does already)</source>
        <translation>claude-peers beim Anmelden starten (geschieht bereits)</translation>
    </message>
    <message>
        <source>Connect your sessions</source>
        <translation>Ihre Sitzungen verbinden</translation>
    </message>
    <message>
        <source>Run the first line once in a terminal; add the others to the files they name. New sessions then find each other. (All three are in Settings too.)</source>
        <translation>Führen Sie die erste Zeile einmal in einem Terminal aus; fügen Sie die anderen in die genannten Dateien ein. Neue Sitzungen finden sich dann gegenseitig. (Alle drei stehen auch in den Einstellungen.)</translation>
    </message>
    <message>
        <source>Claude Code: register the MCP helper</source>
        <translation>Claude Code: den MCP-Helper registrieren</translation>
    </message>
    <message>
        <source>Claude Code hooks (needs-you / busy / idle): merge into ~/.claude/settings.json</source>
        <translation>Claude-Code-Hooks (wartet auf Sie / beschäftigt / im Leerlauf): in ~/.claude/settings.json einfügen</translation>
    </message>
    <message>
        <source>OpenCode: add to opencode.json</source>
        <translation>OpenCode: in opencode.json eintragen</translation>
    </message>
    <message>
        <source>Other machines (optional)</source>
        <translation>Andere Rechner (optional)</translation>
    </message>
    <message>
        <source>Brokers on other machines of your network can link, so sessions there appear here too. Each link is confirmed on both machines with a short code.</source>
        <translation>Broker auf anderen Rechnern Ihres Netzwerks können sich verbinden, sodass deren Sitzungen auch hier erscheinen. Jede Verbindung wird auf beiden Rechnern mit einem kurzen Code bestätigt.</translation>
    </message>
    <message>
        <source>Open the Federation page to link a machine</source>
        <translation>Seite Föderation öffnen, um einen Rechner zu verbinden</translation>
    </message>
    <message>
        <source>No broker to ask.</source>
        <translation>Kein Broker zum Fragen.</translation>
    </message>
</context>
<context>
    <name>App::IgnoredMachinesModel</name>
    <message>
        <source>Machine</source>
        <translation>Rechner</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Fingerabdruck</translation>
    </message>
    <message>
        <source>Ignored since</source>
        <translation>Ignoriert seit</translation>
    </message>
</context>
<context>
    <name>App::MainWindow</name>
    <message>
        <source>claude-peers</source>
        <translation>claude-peers</translation>
    </message>
</context>
<context>
    <name>App::MessageLogModel</name>
    <message>
        <source>⚠ bounced</source>
        <translation>⚠ zurückgekommen</translation>
    </message>
    <message>
        <source>⚠ not delivered</source>
        <translation>⚠ nicht zugestellt</translation>
    </message>
    <message>
        <source>channel</source>
        <extracomment>after the delivery ticks: the session saw the message as a channel push</extracomment>
        <translation>Kanal</translation>
    </message>
    <message>
        <source>banner</source>
        <extracomment>after the delivery ticks: the session saw the message in a tool result (banner)</extracomment>
        <translation>Banner</translation>
    </message>
    <message>
        <source>✓ stored by the broker</source>
        <translation>✓ vom Broker gespeichert</translation>
    </message>
    <message>
        <source>✓ pushed to the recipient&apos;s stream</source>
        <translation>✓ in den Stream des Empfängers gepusht</translation>
    </message>
    <message>
        <source>✓ fetched by the recipient&apos;s poll</source>
        <translation>✓ vom Empfänger per Abfrage abgeholt</translation>
    </message>
    <message>
        <source>✓ handed to the recipient</source>
        <translation>✓ dem Empfänger übergeben</translation>
    </message>
    <message>
        <source>waiting for the recipient</source>
        <translation>wartet auf den Empfänger</translation>
    </message>
    <message>
        <source>✓ acknowledged: the recipient&apos;s session saw it</source>
        <translation>✓ bestätigt: die Sitzung des Empfängers hat sie gesehen</translation>
    </message>
    <message>
        <source>shown as a channel push</source>
        <translation>als Kanal-Push angezeigt</translation>
    </message>
    <message>
        <source>shown in a tool result (banner or check_messages)</source>
        <translation>in einem Tool-Ergebnis angezeigt (Banner oder check_messages)</translation>
    </message>
    <message>
        <source>⚠ bounced: the recipient disconnected before reading it</source>
        <translation>⚠ zurückgekommen: der Empfänger hat die Verbindung vor dem Lesen getrennt</translation>
    </message>
    <message>
        <source>⚠ not delivered: gone from the log unread</source>
        <translation>⚠ nicht zugestellt: ungelesen aus dem Protokoll verschwunden</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>To</source>
        <translation>An</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation>Zustellung</translation>
    </message>
    <message>
        <source>re #%1: %2</source>
        <extracomment>a reply: the id of the message it answers, then its text</extracomment>
        <translation>Antwort auf #%1: %2</translation>
    </message>
</context>
<context>
    <name>App::MessageThreadsModel</name>
    <message numerus="yes">
        <source>All messages (%n)</source>
        <translation>
            <numerusform>Alle Nachrichten (%n)</numerusform>
            <numerusform>Alle Nachrichten (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n message(s)</source>
        <translation>
            <numerusform>%1 — %n Nachricht</numerusform>
            <numerusform>%1 — %n Nachrichten</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::MessagesPage</name>
    <message>
        <source>Older messages</source>
        <translation>Ältere Nachrichten</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Antworten</translation>
    </message>
    <message>
        <source>Search messages</source>
        <translation>Nachrichten durchsuchen</translation>
    </message>
    <message>
        <source>Write a message as the operator</source>
        <translation>Nachricht als Operator schreiben</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>An:</translation>
    </message>
    <message numerus="yes">
        <source>%n older message(s) loaded.</source>
        <translation>
            <numerusform>%n ältere Nachricht geladen.</numerusform>
            <numerusform>%n ältere Nachrichten geladen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Sending is off: no operator peer.</source>
        <translation>Senden ist aus: kein Operator-Peer.</translation>
    </message>
    <message>
        <source>You write as the peer &quot;%1&quot; (%2).</source>
        <translation>Sie schreiben als Peer „%1“ (%2).</translation>
    </message>
    <message>
        <source>Connecting the operator to the broker…</source>
        <translation>Operator wird mit dem Broker verbunden…</translation>
    </message>
    <message>
        <source>Any peer</source>
        <translation>Alle Peers</translation>
    </message>
    <message>
        <source>Any scope</source>
        <translation>Jeder Bereich</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>Dieser Rechner</translation>
    </message>
    <message>
        <source>Directory %1</source>
        <translation>Verzeichnis %1</translation>
    </message>
    <message>
        <source>Repository %1</source>
        <translation>Repository %1</translation>
    </message>
    <message>
        <source>Everyone on this machine</source>
        <translation>Alle auf diesem Rechner</translation>
    </message>
    <message>
        <source>Everyone in %1</source>
        <translation>Alle in %1</translation>
    </message>
    <message>
        <source>Everyone in the repository %1</source>
        <translation>Alle im Repository %1</translation>
    </message>
    <message>
        <source>Everyone (broadcast, all machines)</source>
        <translation>Alle (Broadcast, alle Rechner)</translation>
    </message>
    <message>
        <source>Relayed to %1.</source>
        <translation>An %1 weitergeleitet.</translation>
    </message>
    <message>
        <source>Sent as message #%1.</source>
        <translation>Als Nachricht #%1 gesendet.</translation>
    </message>
    <message numerus="yes">
        <source>Broadcast to %n peer(s).</source>
        <translation>
            <numerusform>An %n Peer gesendet.</numerusform>
            <numerusform>An %n Peers gesendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Select the message to reply to.</source>
        <translation>Wählen Sie die Nachricht, auf die Sie antworten möchten.</translation>
    </message>
    <message>
        <source>Replied as message #%1.</source>
        <translation>Als Nachricht #%1 geantwortet.</translation>
    </message>
</context>
<context>
    <name>App::NotificationSettings</name>
    <message>
        <source>A session needs you</source>
        <translation>Eine Sitzung braucht Sie</translation>
    </message>
    <message>
        <source>A message for you</source>
        <translation>Eine Nachricht für Sie</translation>
    </message>
    <message>
        <source>A peer joined</source>
        <translation>Ein Peer ist hinzugekommen</translation>
    </message>
    <message>
        <source>A peer left</source>
        <translation>Ein Peer ist gegangen</translation>
    </message>
    <message>
        <source>Federation warnings</source>
        <translation>Föderationswarnungen</translation>
    </message>
    <message>
        <source>A broker asks to pair</source>
        <translation>Ein Broker möchte sich koppeln</translation>
    </message>
    <message>
        <source>An OpenCode session finished</source>
        <translation>Eine OpenCode-Sitzung ist fertig</translation>
    </message>
    <message>
        <source>A scheduled run failed</source>
        <translation>Ein geplanter Lauf ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>Broker problems</source>
        <translation>Brokerprobleme</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Benachrichtigungen</translation>
    </message>
    <message>
        <source>Show notifications</source>
        <translation>Benachrichtigungen anzeigen</translation>
    </message>
    <message>
        <source>Only when something waits for me (a session needs me, a pairing request)</source>
        <translation>Nur wenn etwas auf mich wartet (eine Sitzung braucht mich, eine Kopplungsanfrage)</translation>
    </message>
    <message>
        <source>Quiet hours</source>
        <translation>Ruhezeiten</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Unmute</source>
        <translation>Stummschaltung aufheben</translation>
    </message>
    <message>
        <source>from</source>
        <extracomment>between the start and end of quiet hours</extracomment>
        <translation>von</translation>
    </message>
    <message>
        <source>to</source>
        <extracomment>between the start and end of quiet hours</extracomment>
        <translation>bis</translation>
    </message>
    <message>
        <source>Kinds</source>
        <translation>Arten</translation>
    </message>
    <message>
        <source>Muted peers</source>
        <translation>Stummgeschaltete Peers</translation>
    </message>
    <message>
        <source>Paused until %1</source>
        <translation>Pausiert bis %1</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
</context>
<context>
    <name>App::NotificationsPage</name>
    <message>
        <source>notifications off</source>
        <translation>Benachrichtigungen aus</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>this kind is off</source>
        <translation>diese Art ist aus</translation>
    </message>
    <message>
        <source>peer muted</source>
        <translation>Peer stummgeschaltet</translation>
    </message>
    <message>
        <source>not waiting for you</source>
        <translation>wartet nicht auf Sie</translation>
    </message>
    <message>
        <source>quiet hours</source>
        <translation>Ruhezeiten</translation>
    </message>
    <message>
        <source>(not shown: %1)</source>
        <translation>(nicht angezeigt: %1)</translation>
    </message>
    <message>
        <source>Mute peer</source>
        <translation>Peer stummschalten</translation>
    </message>
    <message>
        <source>Mark all read</source>
        <translation>Alle als gelesen markieren</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Notifications are off: they are only listed here.</source>
        <translation>Benachrichtigungen sind aus: sie werden nur hier aufgelistet.</translation>
    </message>
    <message>
        <source>Notifications are paused until you resume them: they are only listed here.</source>
        <translation>Benachrichtigungen sind pausiert, bis Sie sie fortsetzen: sie werden nur hier aufgelistet.</translation>
    </message>
    <message>
        <source>Notifications are paused until %1: they are only listed here.</source>
        <translation>Benachrichtigungen sind bis %1 pausiert: sie werden nur hier aufgelistet.</translation>
    </message>
    <message>
        <source>Quiet hours: %1.</source>
        <translation>Ruhezeiten: %1.</translation>
    </message>
    <message>
        <source>Only what waits for you pops up.</source>
        <translation>Nur was auf Sie wartet, wird eingeblendet.</translation>
    </message>
    <message>
        <source>Muted peers: %1.</source>
        <translation>Stummgeschaltete Peers: %1.</translation>
    </message>
</context>
<context>
    <name>App::Notifier</name>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Antworten</translation>
    </message>
    <message>
        <source>Reply…</source>
        <translation>Antworten…</translation>
    </message>
    <message>
        <source>Mute peer</source>
        <translation>Peer stummschalten</translation>
    </message>
    <message>
        <source>Reply to %1</source>
        <translation>Antwort an %1</translation>
    </message>
    <message>
        <source>Mute session</source>
        <translation>Sitzung stummschalten</translation>
    </message>
    <message>
        <source>Mute schedule</source>
        <translation>Zeitplan stummschalten</translation>
    </message>
</context>
<context>
    <name>App::OpenCodeActivity</name>
    <message>
        <source>OpenCode %1</source>
        <translation>OpenCode %1</translation>
    </message>
</context>
<context>
    <name>App::OpenCodeRowsModel</name>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Name: %1</source>
        <translation>Name: %1</translation>
    </message>
    <message>
        <source>Kind: OpenCode session, driven by the control service</source>
        <translation>Art: OpenCode-Sitzung, gesteuert vom Steuerdienst</translation>
    </message>
    <message>
        <source>ID: %1</source>
        <translation>ID: %1</translation>
    </message>
    <message>
        <source>Machine: this machine</source>
        <translation>Rechner: dieser Rechner</translation>
    </message>
    <message>
        <source>Directory: %1</source>
        <translation>Verzeichnis: %1</translation>
    </message>
    <message>
        <source>Git root: %1</source>
        <translation>Git-Wurzel: %1</translation>
    </message>
    <message>
        <source>State: %1 (OpenCode status: %2)</source>
        <translation>Zustand: %1 (OpenCode-Status: %2)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>In state for: %1</source>
        <translation>In diesem Zustand seit: %1</translation>
    </message>
    <message>
        <source>What it needs: %1</source>
        <translation>Was sie braucht: %1</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>Letzter Fehler: %1</translation>
    </message>
    <message>
        <source>claude-peers peer of OpenCode in this folder: %1</source>
        <translation>claude-peers-Peer von OpenCode in diesem Ordner: %1</translation>
    </message>
    <message>
        <source>(A message to that peer reaches whichever OpenCode chat in this folder uses a claude-peers tool next, not necessarily this session.)</source>
        <translation>(Eine Nachricht an diesen Peer erreicht den OpenCode-Chat in diesem Ordner, der als nächster ein claude-peers-Werkzeug benutzt – nicht unbedingt diese Sitzung.)</translation>
    </message>
    <message>
        <source>OpenCode %1</source>
        <translation>OpenCode %1</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>dieser Rechner</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>OpenCode</source>
        <extracomment>in the peers&apos; reachability column: the row is an OpenCode session (prompted, not messaged)</extracomment>
        <translation>OpenCode</translation>
    </message>
    <message>
        <source>OpenCode session %1 in %2
Send it a prompt, fork it or wait for it on the Sessions page.</source>
        <translation>OpenCode-Sitzung %1 in %2
Auf der Seite „Sitzungen“ einen Prompt senden, sie abzweigen oder auf sie warten.</translation>
    </message>
    <message>
        <source>Waiting for your answer to a %1: %2</source>
        <translation>Wartet auf Ihre Antwort (%1): %2</translation>
    </message>
    <message>
        <source>An OpenCode session driven by the control service: it gets prompts (send, fork), not claude-peers messages.</source>
        <translation>Eine vom Steuerdienst gesteuerte OpenCode-Sitzung: Sie erhält Prompts (senden, abzweigen), keine claude-peers-Nachrichten.</translation>
    </message>
</context>
<context>
    <name>App::OperatorPeer</name>
    <message>
        <source>The operator is not registered with the broker yet; try again when the broker is running.</source>
        <translation>Der Operator ist noch nicht beim Broker angemeldet; versuchen Sie es erneut, wenn der Broker läuft.</translation>
    </message>
    <message>
        <source>Message #%1 came from &quot;%2&quot;, which cannot receive a reply.</source>
        <translation>Nachricht #%1 kam von „%2“, der keine Antwort empfangen kann.</translation>
    </message>
</context>
<context>
    <name>App::PairedBrokersModel</name>
    <message>
        <source>connected</source>
        <translation>verbunden</translation>
    </message>
    <message>
        <source>evicted (no answer for 90 s), reconnecting</source>
        <translation>getrennt (90 s keine Antwort), verbindet neu</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>verbindet neu</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>verbindet</translation>
    </message>
    <message>
        <source>(not answered yet)</source>
        <translation>(noch keine Antwort)</translation>
    </message>
    <message>
        <source>not pinned</source>
        <translation>nicht angeheftet</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>Rechner</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Fingerabdruck</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
    <message>
        <source>Peers</source>
        <translation>Peers</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message numerus="yes">
        <source>Round trip of its peer sync: last %1, smoothed %2 (%n sample(s))</source>
        <translation>
            <numerusform>Umlaufzeit der Peer-Synchronisierung: zuletzt %1, geglättet %2 (%n Messung)</numerusform>
            <numerusform>Umlaufzeit der Peer-Synchronisierung: zuletzt %1, geglättet %2 (%n Messungen)</numerusform>
        </translation>
    </message>
    <message>
        <source>Round trip</source>
        <translation>Umlaufzeit</translation>
    </message>
</context>
<context>
    <name>App::PeerFacts</name>
    <message>
        <source>push</source>
        <translation>Push</translation>
    </message>
    <message>
        <source>poll only</source>
        <translation>nur Abfrage</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>veraltet</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <source>Its channel push works: a message shows in the session within milliseconds.</source>
        <translation>Der Kanal-Push funktioniert: eine Nachricht erscheint innerhalb von Millisekunden in der Sitzung.</translation>
    </message>
    <message>
        <source>Push is not confirmed for this session: it reads messages when it next checks.</source>
        <translation>Push ist für diese Sitzung nicht bestätigt: sie liest Nachrichten bei ihrer nächsten Abfrage.</translation>
    </message>
    <message numerus="yes">
        <source>No heartbeat for over %n seconds: the session may be suspended or stuck.</source>
        <translation>
            <numerusform>Seit über %n Sekunde kein Lebenszeichen: die Sitzung ist vielleicht angehalten oder hängt.</numerusform>
            <numerusform>Seit über %n Sekunden kein Lebenszeichen: die Sitzung ist vielleicht angehalten oder hängt.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Silent for over %n seconds: a message would wait until it comes back, if ever.</source>
        <translation>
            <numerusform>Seit über %n Sekunde still: eine Nachricht würde warten, bis sie zurückkommt – falls überhaupt.</numerusform>
            <numerusform>Seit über %n Sekunden still: eine Nachricht würde warten, bis sie zurückkommt – falls überhaupt.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 [%2]</source>
        <translation>%1 [%2]</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Name: %1</source>
        <translation>Name: %1</translation>
    </message>
    <message>
        <source>ID: %1</source>
        <translation>ID: %1</translation>
    </message>
    <message>
        <source>Machine: %1</source>
        <translation>Rechner: %1</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>dieser Rechner</translation>
    </message>
    <message>
        <source>Project: %1</source>
        <translation>Projekt: %1</translation>
    </message>
    <message>
        <source>Directory: %1</source>
        <translation>Verzeichnis: %1</translation>
    </message>
    <message>
        <source>Git root: %1</source>
        <translation>Git-Wurzelverzeichnis: %1</translation>
    </message>
    <message>
        <source>Summary: %1</source>
        <translation>Zusammenfassung: %1</translation>
    </message>
    <message>
        <source>State: %1</source>
        <translation>Zustand: %1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>In state since: %1</source>
        <translation>In diesem Zustand seit: %1</translation>
    </message>
    <message>
        <source>What it needs: %1</source>
        <translation>Was sie braucht: %1</translation>
    </message>
    <message>
        <source>Reachability: %1 (channel push: %2)</source>
        <translation>Erreichbarkeit: %1 (Kanal-Push: %2)</translation>
    </message>
    <message>
        <source>Last seen: %1</source>
        <translation>Zuletzt gesehen: %1</translation>
    </message>
    <message>
        <source>Registered: %1</source>
        <translation>Registriert: %1</translation>
    </message>
    <message>
        <source>PID: %1</source>
        <translation>PID: %1</translation>
    </message>
    <message>
        <source>TTY: %1</source>
        <translation>TTY: %1</translation>
    </message>
    <message>
        <source>Client: %1</source>
        <translation>Client: %1</translation>
    </message>
    <message>
        <source>Helper version: %1</source>
        <translation>Helper-Version: %1</translation>
    </message>
    <message>
        <source>Repository %1: the sessions working anywhere in it share this scope.</source>
        <translation>Repository %1: Alle Sitzungen, die irgendwo darin arbeiten, teilen diesen Bereich.</translation>
    </message>
    <message>
        <source>Folder %1 (not in a git repository): the sessions working in this folder share this scope.</source>
        <translation>Ordner %1 (kein Git-Repository): Die Sitzungen, die in diesem Ordner arbeiten, teilen diesen Bereich.</translation>
    </message>
</context>
<context>
    <name>App::PeerScope</name>
    <message>
        <source>All scopes</source>
        <translation>Alle Bereiche</translation>
    </message>
    <message>
        <source>Machine: this machine</source>
        <translation>Rechner: dieser Rechner</translation>
    </message>
    <message>
        <source>Machine: %1</source>
        <translation>Rechner: %1</translation>
    </message>
    <message>
        <source>Repo: %1</source>
        <extracomment>a git repository&apos;s folder, and the machine it is on</extracomment>
        <translation>Repo: %1</translation>
    </message>
    <message>
        <source>Repo: %1 (%2)</source>
        <translation>Repo: %1 (%2)</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <extracomment>a working folder, and the machine it is on</extracomment>
        <translation>Ordner: %1</translation>
    </message>
    <message>
        <source>Folder: %1 (%2)</source>
        <translation>Ordner: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>App::PeersByMachineModel</name>
    <message numerus="yes">
        <source>This machine (%n peer(s))</source>
        <translation>
            <numerusform>Dieser Rechner (%n Peer)</numerusform>
            <numerusform>Dieser Rechner (%n Peers)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n peer(s))</source>
        <translation>
            <numerusform>%1 (%n Peer)</numerusform>
            <numerusform>%1 (%n Peers)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This machine (%n OpenCode session(s))</source>
        <translation>
            <numerusform>Dieser Rechner (%n OpenCode-Sitzung)</numerusform>
            <numerusform>Dieser Rechner (%n OpenCode-Sitzungen)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This machine (%n peer(s), %1)</source>
        <extracomment>%1 is &quot;%n OpenCode session(s)&quot;</extracomment>
        <translation>
            <numerusform>Dieser Rechner (%n Peer, %1)</numerusform>
            <numerusform>Dieser Rechner (%n Peers, %1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n OpenCode session(s)</source>
        <translation>
            <numerusform>%n OpenCode-Sitzung</numerusform>
            <numerusform>%n OpenCode-Sitzungen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <extracomment>a remote machine&apos;s row on the Peers page: %1 its name and count, %2 its link&apos;s health</extracomment>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Certificate fingerprint: %1</source>
        <translation>Fingerabdruck des Zertifikats: %1</translation>
    </message>
</context>
<context>
    <name>App::PeersModel</name>
    <message>
        <source>%1
git root: %2</source>
        <translation>%1
Git-Wurzelverzeichnis: %2</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Directory</source>
        <translation>Verzeichnis</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Zusammenfassung</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>dieser Rechner</translation>
    </message>
    <message>
        <source>Peer %1
pid %2, tty %3, version %4
client %5
registered %6</source>
        <translation>Peer %1
PID %2, TTY %3, Version %4
Client %5
registriert %6</translation>
    </message>
    <message>
        <source>none</source>
        <comment>tty</comment>
        <translation>keins</translation>
    </message>
    <message>
        <source>unknown</source>
        <comment>version</comment>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>not said</source>
        <comment>client</comment>
        <translation>nicht angegeben</translation>
    </message>
    <message>
        <source>since %1</source>
        <translation>seit %1</translation>
    </message>
    <message>
        <source>%1
since %2</source>
        <translation>%1
seit %2</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>Rechner</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Also working in %1: %2.
Two sessions editing one folder overwrite each other&apos;s changes.</source>
        <translation>Ebenfalls in %1 tätig: %2.
Zwei Sitzungen, die denselben Ordner bearbeiten, überschreiben gegenseitig ihre Änderungen.</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>Reachability</source>
        <translation>Erreichbarkeit</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Bereich</translation>
    </message>
</context>
<context>
    <name>App::PeersPage</name>
    <message>
        <source>Copy details</source>
        <translation>Details kopieren</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Umbenennen</translation>
    </message>
    <message>
        <source>Retry broker start</source>
        <translation>Broker-Start erneut versuchen</translation>
    </message>
    <message>
        <source>Filter by name, machine, ID, project, directory or summary</source>
        <translation>Nach Name, Rechner, ID, Projekt, Verzeichnis oder Zusammenfassung filtern</translation>
    </message>
    <message>
        <source>Select a peer to see every field of its record.</source>
        <translation>Wählen Sie einen Peer, um alle Felder seines Eintrags zu sehen.</translation>
    </message>
    <message>
        <source>New session name</source>
        <translation>Neuer Sitzungsname</translation>
    </message>
    <message>
        <source>A remote peer is renamed on its own machine.</source>
        <translation>Ein entfernter Peer wird auf seinem eigenen Rechner umbenannt.</translation>
    </message>
    <message>
        <source>Type a name first.</source>
        <translation>Geben Sie zuerst einen Namen ein.</translation>
    </message>
    <message>
        <source>Renaming…</source>
        <translation>Wird umbenannt…</translation>
    </message>
    <message>
        <source>Could not rename %1: %2</source>
        <translation>%1 konnte nicht umbenannt werden: %2</translation>
    </message>
    <message>
        <source>The broker did not rename %1 (is it still registered?).</source>
        <translation>Der Broker hat %1 nicht umbenannt (ist er noch registriert?).</translation>
    </message>
    <message>
        <source>Renamed %1 to &quot;%2&quot;.</source>
        <translation>%1 in „%2“ umbenannt.</translation>
    </message>
    <message>
        <source>Message…</source>
        <translation>Nachricht…</translation>
    </message>
    <message>
        <source>Send, fork or wait…</source>
        <translation>Senden, abzweigen oder warten…</translation>
    </message>
    <message>
        <source>Show one machine, one repository or one folder (the scopes of list_peers and broadcast)</source>
        <translation>Einen Rechner, ein Repository oder einen Ordner zeigen (die Bereiche von list_peers und broadcast)</translation>
    </message>
    <message>
        <source>Write to this peer as the operator, on the Messages page</source>
        <translation>Diesem Peer als Bediener schreiben, auf der Seite „Nachrichten“</translation>
    </message>
    <message>
        <source>Send this OpenCode session a prompt, fork it or wait for it, on the Sessions page</source>
        <translation>Dieser OpenCode-Sitzung einen Prompt senden, sie abzweigen oder auf sie warten, auf der Seite „Sitzungen“</translation>
    </message>
    <message>
        <source>An OpenCode session&apos;s title is set in OpenCode.</source>
        <translation>Den Titel einer OpenCode-Sitzung legt man in OpenCode fest.</translation>
    </message>
</context>
<context>
    <name>App::PendingRequestsModel</name>
    <message>
        <source>%1 (%2:%3) — code %4</source>
        <translation>%1 (%2:%3) — Code %4</translation>
    </message>
</context>
<context>
    <name>App::QrCode</name>
    <message>
        <source>Nothing to encode</source>
        <translation>Nichts zu kodieren</translation>
    </message>
    <message numerus="yes">
        <source>The text does not fit in a QR code (%n bytes)</source>
        <translation>
            <numerusform>Der Text passt nicht in einen QR-Code (%n Byte)</numerusform>
            <numerusform>Der Text passt nicht in einen QR-Code (%n Byte)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::SchedulesModel</name>
    <message>
        <source>Daily at %1</source>
        <translation>Täglich um %1</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 um %2</translation>
    </message>
    <message>
        <source>Once on %1 at %2</source>
        <translation>Einmal am %1 um %2</translation>
    </message>
    <message>
        <source>Cron %1</source>
        <translation>Cron %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>not run yet</source>
        <translation>noch nicht gelaufen</translation>
    </message>
    <message>
        <source>Session %1</source>
        <translation>Sitzung %1</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>aktiviert</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Next run</source>
        <translation>Nächster Lauf</translation>
    </message>
    <message>
        <source>Last run</source>
        <translation>Letzter Lauf</translation>
    </message>
    <message>
        <source>Last status</source>
        <translation>Letzter Status</translation>
    </message>
    <message>
        <source>sent message #%1</source>
        <translation>Nachricht #%1 gesendet</translation>
    </message>
    <message>
        <source>Message #%1 to %2</source>
        <translation>Nachricht #%1 an %2</translation>
    </message>
    <message>
        <source>peer %1</source>
        <translation>Peer %1</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
</context>
<context>
    <name>App::SchedulesPage</name>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Disable</source>
        <translation>Deaktivieren</translation>
    </message>
    <message>
        <source>Run now</source>
        <translation>Jetzt ausführen</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Löschen…</translation>
    </message>
    <message>
        <source>Open the session</source>
        <translation>Sitzung öffnen</translation>
    </message>
    <message>
        <source>Create it disabled</source>
        <translation>Deaktiviert anlegen</translation>
    </message>
    <message>
        <source>Create task</source>
        <translation>Aufgabe anlegen</translation>
    </message>
    <message>
        <source>Delete the scheduled task</source>
        <translation>Geplante Aufgabe löschen</translation>
    </message>
    <message>
        <source>provider/model</source>
        <translation>Anbieter/Modell</translation>
    </message>
    <message>
        <source>default agent</source>
        <translation>Standard-Agent</translation>
    </message>
    <message>
        <source>default variant</source>
        <translation>Standardvariante</translation>
    </message>
    <message>
        <source>Daily</source>
        <translation>Täglich</translation>
    </message>
    <message>
        <source>Weekly</source>
        <translation>Wöchentlich</translation>
    </message>
    <message>
        <source>Once</source>
        <translation>Einmal</translation>
    </message>
    <message>
        <source>Cron</source>
        <translation>Cron</translation>
    </message>
    <message>
        <source>minute hour day month weekday, e.g. 0 9 * * 1-5</source>
        <translation>Minute Stunde Tag Monat Wochentag, z. B. 0 9 * * 1-5</translation>
    </message>
    <message>
        <source>Project:</source>
        <translation>Projekt:</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>Prompt:</translation>
    </message>
    <message>
        <source>Agent:</source>
        <translation>Agent:</translation>
    </message>
    <message>
        <source>Variant:</source>
        <translation>Variante:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <source>When:</source>
        <translation>Wann:</translation>
    </message>
    <message>
        <source>Weekdays:</source>
        <translation>Wochentage:</translation>
    </message>
    <message>
        <source>Time zone:</source>
        <translation>Zeitzone:</translation>
    </message>
    <message>
        <source>New scheduled task</source>
        <translation>Neue geplante Aufgabe</translation>
    </message>
    <message>
        <source>Delete the scheduled task “%1”? Its runs&apos; sessions stay in OpenCode.</source>
        <translation>Die geplante Aufgabe „%1“ löschen? Die Sitzungen ihrer Läufe bleiben in OpenCode.</translation>
    </message>
    <message>
        <source>Could not list the scheduled tasks: %1</source>
        <translation>Die geplanten Aufgaben konnten nicht abgerufen werden: %1</translation>
    </message>
    <message>
        <source>No projects configured: add them under &quot;openchamber&quot; → &quot;projects&quot; in ~/.claude-peers-config.json.</source>
        <translation>Keine Projekte konfiguriert: tragen Sie sie unter &quot;openchamber&quot; → &quot;projects&quot; in ~/.claude-peers-config.json ein.</translation>
    </message>
    <message numerus="yes">
        <source>%n scheduled task(s)</source>
        <translation>
            <numerusform>%n geplante Aufgabe</numerusform>
            <numerusform>%n geplante Aufgaben</numerusform>
        </translation>
    </message>
    <message>
        <source>The task ran: session %1.</source>
        <translation>Die Aufgabe lief: Sitzung %1.</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Enable</source>
        <translation>Aktivieren</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>A new OpenCode session in a project</source>
        <translation>Eine neue OpenCode-Sitzung in einem Projekt</translation>
    </message>
    <message>
        <source>A message to a peer</source>
        <translation>Eine Nachricht an einen Peer</translation>
    </message>
    <message>
        <source>the peer&apos;s session name (or id)</source>
        <translation>Sitzungsname des Peers (oder ID)</translation>
    </message>
    <message>
        <source>At the task&apos;s time the prompt goes to the connected peer of this session name (else id) as a message from you. It need not be connected now.</source>
        <translation>Zur Zeit der Aufgabe geht der Prompt als Nachricht von Ihnen an den verbundenen Peer mit diesem Sitzungsnamen (sonst dieser ID). Er muss jetzt noch nicht verbunden sein.</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>Ziel:</translation>
    </message>
    <message>
        <source>Delete the scheduled task “%1”? The messages it sent stay.</source>
        <translation>Die geplante Aufgabe „%1“ löschen? Die gesendeten Nachrichten bleiben erhalten.</translation>
    </message>
    <message>
        <source>The task ran: message #%1 to %2.</source>
        <translation>Die Aufgabe lief: Nachricht #%1 an %2.</translation>
    </message>
    <message>
        <source>Open the message</source>
        <translation>Nachricht öffnen</translation>
    </message>
    <message>
        <source>%1 (id %2) in %3</source>
        <translation>%1 (ID %2) in %3</translation>
    </message>
    <message>
        <source>Choose the peer to message, or type its session name.</source>
        <translation>Wählen Sie den Peer für die Nachricht oder geben Sie seinen Sitzungsnamen ein.</translation>
    </message>
</context>
<context>
    <name>App::SessionsModel</name>
    <message>
        <source>needs you (permission)</source>
        <translation>wartet auf Sie (Berechtigung)</translation>
    </message>
    <message>
        <source>needs you (permission: %1)</source>
        <translation>wartet auf Sie (Berechtigung: %1)</translation>
    </message>
    <message>
        <source>needs you (question)</source>
        <translation>wartet auf Sie (Frage)</translation>
    </message>
    <message>
        <source>needs you (question: %1)</source>
        <translation>wartet auf Sie (Frage: %1)</translation>
    </message>
    <message>
        <source>needs you</source>
        <translation>wartet auf Sie</translation>
    </message>
    <message>
        <source>busy</source>
        <translation>beschäftigt</translation>
    </message>
    <message>
        <source>retrying</source>
        <translation>neuer Versuch</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>im Leerlauf</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>%1 — error: %2</source>
        <translation>%1 — Fehler: %2</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>In state</source>
        <translation>Im Zustand seit</translation>
    </message>
    <message>
        <source>Directory</source>
        <translation>Verzeichnis</translation>
    </message>
    <message>
        <source>Last answer</source>
        <translation>Letzte Antwort</translation>
    </message>
</context>
<context>
    <name>App::SessionsPage</name>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Wait for the answer</source>
        <translation>Auf die Antwort warten</translation>
    </message>
    <message>
        <source>Create session</source>
        <translation>Sitzung anlegen</translation>
    </message>
    <message>
        <source>Send to selected</source>
        <translation>An gewählte senden</translation>
    </message>
    <message>
        <source>Fork selected</source>
        <translation>Gewählte abzweigen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>The selected session&apos;s last answer</source>
        <translation>Die letzte Antwort der gewählten Sitzung</translation>
    </message>
    <message>
        <source>A configured project, or a directory to create the session in</source>
        <translation>Ein konfiguriertes Projekt oder ein Verzeichnis, in dem die Sitzung angelegt wird</translation>
    </message>
    <message>
        <source>Title (optional)</source>
        <translation>Titel (optional)</translation>
    </message>
    <message>
        <source>Prompt (optional for a new session)</source>
        <translation>Prompt (für eine neue Sitzung optional)</translation>
    </message>
    <message>
        <source>provider/model; empty: the configured default</source>
        <translation>Anbieter/Modell; leer: der konfigurierte Standard</translation>
    </message>
    <message>
        <source>OpenCode agent; empty: the default. The service checks it against OpenCode.</source>
        <translation>OpenCode-Agent; leer: der Standard. Der Dienst prüft ihn gegen OpenCode.</translation>
    </message>
    <message>
        <source>default (600 s)</source>
        <translation>Standard (600 s)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Project or directory:</source>
        <translation>Projekt oder Verzeichnis:</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>Titel:</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>Prompt:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <source>Agent:</source>
        <translation>Agent:</translation>
    </message>
    <message>
        <source>Variant:</source>
        <translation>Variante:</translation>
    </message>
    <message>
        <source>Timeout:</source>
        <translation>Zeitlimit:</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message numerus="yes">
        <source>%n OpenCode session(s)</source>
        <translation>
            <numerusform>%n OpenCode-Sitzung</numerusform>
            <numerusform>%n OpenCode-Sitzungen</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not list the sessions: %1</source>
        <translation>Die Sitzungen konnten nicht abgerufen werden: %1</translation>
    </message>
    <message>
        <source>The prompt did not reach the session: %1</source>
        <translation>Der Prompt hat die Sitzung nicht erreicht: %1</translation>
    </message>
    <message>
        <source>Cancelled: %1 no longer waits (the broker stopped it).</source>
        <translation>Abgebrochen: %1 wartet nicht mehr (der Broker hat es beendet).</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>provider/model</source>
        <translation>Anbieter/Modell</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>Standard: %1</translation>
    </message>
    <message>
        <source>default agent</source>
        <translation>Standard-Agent</translation>
    </message>
    <message>
        <source>default variant</source>
        <translation>Standardvariante</translation>
    </message>
    <message numerus="yes">
        <source>Waiting for the session&apos;s answer… %n s</source>
        <translation>
            <numerusform>Warten auf die Antwort der Sitzung… %n s</numerusform>
            <numerusform>Warten auf die Antwort der Sitzung… %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 running… %n s</source>
        <translation>
            <numerusform>%1 läuft… %n s</numerusform>
            <numerusform>%1 läuft… %n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::SessionsPresenter</name>
    <message>
        <source>Choose a project or a directory for the new session.</source>
        <translation>Wählen Sie ein Projekt oder ein Verzeichnis für die neue Sitzung.</translation>
    </message>
    <message>
        <source>Choose the session to send the prompt to.</source>
        <translation>Wählen Sie die Sitzung, an die der Prompt gehen soll.</translation>
    </message>
    <message>
        <source>Write the prompt to send.</source>
        <translation>Schreiben Sie den zu sendenden Prompt.</translation>
    </message>
    <message>
        <source>The model must be written provider/model, e.g. openai/gpt-5.</source>
        <translation>Das Modell muss als Anbieter/Modell angegeben werden, z. B. openai/gpt-5.</translation>
    </message>
    <message>
        <source>Wait for %1 to finish, or cancel it.</source>
        <translation>Warten Sie, bis %1 fertig ist, oder brechen Sie es ab.</translation>
    </message>
</context>
<context>
    <name>App::SettingsPage</name>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Start claude-peers at login</source>
        <translation>claude-peers beim Anmelden starten</translation>
    </message>
    <message>
        <source>%1 — set by CLAUDE_PEERS_PORT in the environment of the tray and of every session (as claude-peers 0.7 does); changing it needs a restart of the tray and the sessions.</source>
        <translation>%1 — festgelegt durch CLAUDE_PEERS_PORT in der Umgebung der Tray-App und jeder Sitzung (wie bei claude-peers 0.7); eine Änderung erfordert einen Neustart der Tray-App und der Sitzungen.</translation>
    </message>
    <message>
        <source>7900 (default)</source>
        <translation>7900 (Standard)</translation>
    </message>
    <message>
        <source>detected local networks (default), e.g. 192.168.1.0/24, fd00::/64</source>
        <translation>erkannte lokale Netze (Standard), z. B. 192.168.1.0/24, fd00::/64</translation>
    </message>
    <message>
        <source>http://127.0.0.1:4096 (default)</source>
        <translation>http://127.0.0.1:4096 (Standard)</translation>
    </message>
    <message>
        <source>Broker and federation</source>
        <translation>Broker und Föderation</translation>
    </message>
    <message>
        <source>Broker port</source>
        <translation>Broker-Port</translation>
    </message>
    <message>
        <source>Federation port</source>
        <translation>Föderationsport</translation>
    </message>
    <message>
        <source>Allowed subnets</source>
        <translation>Erlaubte Subnetze</translation>
    </message>
    <message>
        <source>OpenCode URL</source>
        <translation>OpenCode-URL</translation>
    </message>
    <message>
        <source>Login</source>
        <translation>Anmeldung</translation>
    </message>
    <message>
        <source>Connect sessions</source>
        <translation>Sitzungen verbinden</translation>
    </message>
    <message>
        <source>Claude Code: register the MCP helper (run once in a terminal)</source>
        <translation>Claude Code: den MCP-Helper registrieren (einmal in einem Terminal ausführen)</translation>
    </message>
    <message>
        <source>OpenCode: add to opencode.json (project) or ~/.config/opencode/opencode.json</source>
        <translation>OpenCode: in opencode.json (Projekt) oder ~/.config/opencode/opencode.json eintragen</translation>
    </message>
    <message>
        <source>Claude Code hooks (needs-you / busy / idle): merge into ~/.claude/settings.json</source>
        <translation>Claude-Code-Hooks (wartet auf Sie / beschäftigt / im Leerlauf): in ~/.claude/settings.json einfügen</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Nothing changed.</source>
        <translation>Nichts geändert.</translation>
    </message>
    <message>
        <source> The OpenCode URL applies when the broker starts again: quit and start the tray, or run `claude-peers restart`.</source>
        <translation> Die OpenCode-URL gilt ab dem nächsten Start des Brokers: beenden und starten Sie die Tray-App oder führen Sie `claude-peers restart` aus.</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>Gespeichert.</translation>
    </message>
    <message>
        <source>Saved; asking the broker to apply it…</source>
        <translation>Gespeichert; der Broker wird gebeten, es zu übernehmen…</translation>
    </message>
    <message>
        <source>Saved; the broker applied it.</source>
        <translation>Gespeichert; der Broker hat es übernommen.</translation>
    </message>
    <message>
        <source>Saved; the broker did not take it now (%1), it reads the file when it starts.</source>
        <translation>Gespeichert; der Broker hat es jetzt nicht übernommen (%1), er liest die Datei beim Start.</translation>
    </message>
</context>
<context>
    <name>App::StatusPage</name>
    <message>
        <source>Copy diagnostics</source>
        <translation>Diagnose kopieren</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>Rates</source>
        <translation>Raten</translation>
    </message>
    <message>
        <source>Peers</source>
        <translation>Peers</translation>
    </message>
    <message>
        <source>Pending messages</source>
        <translation>Ausstehende Nachrichten</translation>
    </message>
    <message>
        <source>Federation</source>
        <translation>Föderation</translation>
    </message>
    <message>
        <source>Secrets</source>
        <translation>Geheimnisse</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>The text of `claude-peers status` and `claude-peers metrics`, with the database and versions, for a bug report</source>
        <translation>Die Ausgabe von `claude-peers status` und `claude-peers metrics`, mit Datenbank und Versionen, für einen Fehlerbericht</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>The broker does not answer: %1</source>
        <translation>Der Broker antwortet nicht: %1</translation>
    </message>
    <message>
        <source>The broker does not answer.</source>
        <translation>Der Broker antwortet nicht.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>broker %1, pid %2; tray %3, Qt %4</source>
        <translation>Broker %1, PID %2; Tray %3, Qt %4</translation>
    </message>
    <message>
        <source>(not said)</source>
        <translation>(nicht angegeben)</translation>
    </message>
    <message numerus="yes">
        <source>%1 messages/s, %n request(s) in the last minute; %2 messages stored, %3% delivered</source>
        <translation>
            <numerusform>%1 Nachrichten/s, %n Anfrage in der letzten Minute; %2 Nachrichten gespeichert, %3 % zugestellt</numerusform>
            <numerusform>%1 Nachrichten/s, %n Anfragen in der letzten Minute; %2 Nachrichten gespeichert, %3 % zugestellt</numerusform>
        </translation>
    </message>
    <message>
        <source>off (turn it on in the Federation page or with `claude-peers federation init`)</source>
        <translation>aus (einschalten auf der Seite Föderation oder mit `claude-peers federation init`)</translation>
    </message>
    <message>
        <source>unknown: %1</source>
        <translation>unbekannt: %1</translation>
    </message>
    <message>
        <source>on: %1, %2</source>
        <translation>an: %1, %2</translation>
    </message>
    <message numerus="yes">
        <source>%n machine(s) linked</source>
        <translation>
            <numerusform>%n Rechner verbunden</numerusform>
            <numerusform>%n Rechner verbunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n remote peer(s)</source>
        <translation>
            <numerusform>%n entfernter Peer</numerusform>
            <numerusform>%n entfernte Peers</numerusform>
        </translation>
    </message>
    <message>
        <source>not reported by this broker (a 0.7 broker keeps the token in the file %1)</source>
        <translation>von diesem Broker nicht gemeldet (ein Broker 0.7 hält das Token in der Datei %1)</translation>
    </message>
    <message>
        <source>local token in the OS keychain (%1); token file %2</source>
        <translation>lokales Token im Schlüsselbund des Systems (%1); Token-Datei %2</translation>
    </message>
    <message>
        <source>local token in the file %1</source>
        <translation>lokales Token in der Datei %1</translation>
    </message>
</context>
<context>
    <name>App::TrayComposition</name>
    <message>
        <source>Peers</source>
        <translation>Peers</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>Beim Anmelden starten</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Benachrichtigungen</translation>
    </message>
    <message>
        <source>Pause notifications</source>
        <translation>Benachrichtigungen pausieren</translation>
    </message>
    <message>
        <source>Resume notifications</source>
        <translation>Benachrichtigungen fortsetzen</translation>
    </message>
    <message>
        <source>Reply to %1 not sent</source>
        <translation>Antwort an %1 nicht gesendet</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Nachrichten</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>Sitzungen</translation>
    </message>
    <message>
        <source>Schedules</source>
        <translation>Zeitpläne</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Federation</source>
        <translation>Föderation</translation>
    </message>
    <message>
        <source>%1 wrote to you</source>
        <translation>%1 hat Ihnen geschrieben</translation>
    </message>
</context>
<context>
    <name>App::TrayIcon</name>
    <message>
        <source>Peers…</source>
        <translation>Peers…</translation>
    </message>
    <message>
        <source>Retry broker start</source>
        <translation>Broker-Start erneut versuchen</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>Beim Anmelden starten</translation>
    </message>
    <message>
        <source>Pause notifications</source>
        <translation>Benachrichtigungen pausieren</translation>
    </message>
    <message>
        <source>For 1 hour</source>
        <translation>Für 1 Stunde</translation>
    </message>
    <message>
        <source>For 8 hours</source>
        <translation>Für 8 Stunden</translation>
    </message>
    <message>
        <source>Until I turn them back on</source>
        <translation>Bis ich sie wieder einschalte</translation>
    </message>
    <message>
        <source>Resume notifications</source>
        <translation>Benachrichtigungen fortsetzen</translation>
    </message>
    <message>
        <source>Notifications paused</source>
        <translation>Benachrichtigungen pausiert</translation>
    </message>
    <message>
        <source>Notifications paused until %1</source>
        <translation>Benachrichtigungen pausiert bis %1</translation>
    </message>
    <message>
        <source>Send…</source>
        <translation>Senden…</translation>
    </message>
    <message>
        <source>New OpenCode session…</source>
        <translation>Neue OpenCode-Sitzung…</translation>
    </message>
</context>
<context>
    <name>App::TrayPresenter</name>
    <message>
        <source>claude-peers: broker not running</source>
        <translation>claude-peers: Broker läuft nicht</translation>
    </message>
    <message>
        <source>Starting the broker on port %1…</source>
        <translation>Broker wird auf Port %1 gestartet…</translation>
    </message>
    <message>
        <source>Taking port %1 over from the running broker…</source>
        <translation>Port %1 wird vom laufenden Broker übernommen…</translation>
    </message>
    <message>
        <source>Broker not running: %1</source>
        <translation>Broker läuft nicht: %1</translation>
    </message>
    <message>
        <source>Broker not running: stopped</source>
        <translation>Broker läuft nicht: angehalten</translation>
    </message>
    <message>
        <source>Broker running on port %1 — %2, %3</source>
        <extracomment>%2 is &quot;%n peer(s)&quot;, %3 is &quot;%n pending&quot; (messages not yet delivered)</extracomment>
        <translation>Broker läuft auf Port %1 — %2, %3</translation>
    </message>
    <message numerus="yes">
        <source>%n peer(s)</source>
        <translation>
            <numerusform>%n Peer</numerusform>
            <numerusform>%n Peers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pending</source>
        <extracomment>messages waiting for delivery</extracomment>
        <translation>
            <numerusform>%n ausstehend</numerusform>
            <numerusform>%n ausstehend</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) need(s) you: %1</source>
        <extracomment>%1 lists the sessions&apos; names</extracomment>
        <translation>
            <numerusform>%n Sitzung wartet auf Sie: %1</numerusform>
            <numerusform>%n Sitzungen warten auf Sie: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 busy, %2 idle</source>
        <extracomment>numbers of sessions working and waiting for a prompt</extracomment>
        <translation>%1 beschäftigt, %2 im Leerlauf</translation>
    </message>
    <message>
        <source>claude-peers: federation</source>
        <translation>claude-peers: Föderation</translation>
    </message>
    <message>
        <source>%1 needs you</source>
        <translation>%1 wartet auf Sie</translation>
    </message>
    <message>
        <source>%1 joined</source>
        <translation>%1 ist dazugekommen</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>%1 ist gegangen</translation>
    </message>
    <message>
        <source>Broker running in another process (pid %1) on port %2 — %3, %4</source>
        <extracomment>%1 is a process id; %3 is &quot;%n peer(s)&quot;, %4 is &quot;%n pending&quot;</extracomment>
        <translation>Broker läuft in einem anderen Prozess (PID %1) auf Port %2 — %3, %4</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Tray app of claude-peers: hosts the local broker and shows its peers.
Environment: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN.</source>
        <translation>Tray-App von claude-peers: betreibt den lokalen Broker und zeigt seine Peers.
Umgebungsvariablen: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN.</translation>
    </message>
    <message>
        <source>No tray icon: the window is the app.</source>
        <translation>Kein Tray-Symbol: das Fenster ist die App.</translation>
    </message>
    <message>
        <source>Host the broker without any window or icon (a headless broker).</source>
        <translation>Den Broker ohne Fenster und Symbol betreiben (ein Broker ohne Oberfläche).</translation>
    </message>
    <message>
        <source>Show the first-run wizard again.</source>
        <translation>Den Einrichtungsassistenten erneut zeigen.</translation>
    </message>
    <message>
        <source>When no system tray is there at start, wait for one to appear (e.g. a panel that starts after the app at login) instead of showing the window. The broker runs meanwhile.</source>
        <translation>Wenn beim Start kein System-Tray da ist, auf einen warten (z. B. eine Leiste, die bei der Anmeldung nach der App startet), statt das Fenster zu zeigen. Der Broker läuft währenddessen.</translation>
    </message>
</context>
</TS>
