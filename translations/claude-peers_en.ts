<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>App::AttentionText</name>
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
    <message numerus="yes">
        <source>%n d</source>
        <extracomment>time in a state, abbreviated: days</extracomment>
        <translation>
            <numerusform>%n d</numerusform>
            <numerusform>%n d</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::MessageThreadsModel</name>
    <message numerus="yes">
        <source>All messages (%n)</source>
        <translation>
            <numerusform>All messages (%n)</numerusform>
            <numerusform>All messages (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n message(s)</source>
        <translation>
            <numerusform>%1 — %n message</numerusform>
            <numerusform>%1 — %n messages</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::MessagesPage</name>
    <message numerus="yes">
        <source>%n older message(s) loaded.</source>
        <translation>
            <numerusform>%n older message loaded.</numerusform>
            <numerusform>%n older messages loaded.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Broadcast to %n peer(s).</source>
        <translation>
            <numerusform>Broadcast to %n peer.</numerusform>
            <numerusform>Broadcast to %n peers.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::PairedBrokersModel</name>
    <message numerus="yes">
        <source>Round trip of its peer sync: last %1, smoothed %2 (%n sample(s))</source>
        <translation>
            <numerusform>Round trip of its peer sync: last %1, smoothed %2 (%n sample)</numerusform>
            <numerusform>Round trip of its peer sync: last %1, smoothed %2 (%n samples)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::PeerFacts</name>
    <message numerus="yes">
        <source>No heartbeat for over %n seconds: the session may be suspended or stuck.</source>
        <translation>
            <numerusform>No heartbeat for over %n second: the session may be suspended or stuck.</numerusform>
            <numerusform>No heartbeat for over %n seconds: the session may be suspended or stuck.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Silent for over %n seconds: a message would wait until it comes back, if ever.</source>
        <translation>
            <numerusform>Silent for over %n second: a message would wait until it comes back, if ever.</numerusform>
            <numerusform>Silent for over %n seconds: a message would wait until it comes back, if ever.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::PeersByMachineModel</name>
    <message numerus="yes">
        <source>This machine (%n peer(s))</source>
        <translation>
            <numerusform>This machine (%n peer)</numerusform>
            <numerusform>This machine (%n peers)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n peer(s))</source>
        <translation>
            <numerusform>%1 (%n peer)</numerusform>
            <numerusform>%1 (%n peers)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This machine (%n OpenCode session(s))</source>
        <translation>
            <numerusform>This machine (%n OpenCode session)</numerusform>
            <numerusform>This machine (%n OpenCode sessions)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This machine (%n peer(s), %1)</source>
        <extracomment>%1 is &quot;%n OpenCode session(s)&quot;</extracomment>
        <translation>
            <numerusform>This machine (%n peer, %1)</numerusform>
            <numerusform>This machine (%n peers, %1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n OpenCode session(s)</source>
        <translation>
            <numerusform>%n OpenCode session</numerusform>
            <numerusform>%n OpenCode sessions</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::QrCode</name>
    <message numerus="yes">
        <source>The text does not fit in a QR code (%n bytes)</source>
        <translation>
            <numerusform>The text does not fit in a QR code (%n byte)</numerusform>
            <numerusform>The text does not fit in a QR code (%n bytes)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::SchedulesPage</name>
    <message numerus="yes">
        <source>%n scheduled task(s)</source>
        <translation>
            <numerusform>%n scheduled task</numerusform>
            <numerusform>%n scheduled tasks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::SessionsPage</name>
    <message numerus="yes">
        <source>%n OpenCode session(s)</source>
        <translation>
            <numerusform>%n OpenCode session</numerusform>
            <numerusform>%n OpenCode sessions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Waiting for the session&apos;s answer… %n s</source>
        <translation>
            <numerusform>Waiting for the session&apos;s answer… %n s</numerusform>
            <numerusform>Waiting for the session&apos;s answer… %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 running… %n s</source>
        <translation>
            <numerusform>%1 running… %n s</numerusform>
            <numerusform>%1 running… %n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::StatusPage</name>
    <message numerus="yes">
        <source>%1 messages/s, %n request(s) in the last minute; %2 messages stored, %3% delivered</source>
        <translation>
            <numerusform>%1 messages/s, %n request in the last minute; %2 messages stored, %3% delivered</numerusform>
            <numerusform>%1 messages/s, %n requests in the last minute; %2 messages stored, %3% delivered</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n machine(s) linked</source>
        <translation>
            <numerusform>%n machine linked</numerusform>
            <numerusform>%n machines linked</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n remote peer(s)</source>
        <translation>
            <numerusform>%n remote peer</numerusform>
            <numerusform>%n remote peers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::TrayPresenter</name>
    <message numerus="yes">
        <source>%n peer(s)</source>
        <translation>
            <numerusform>%n peer</numerusform>
            <numerusform>%n peers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pending</source>
        <extracomment>messages waiting for delivery</extracomment>
        <translation>
            <numerusform>%n pending</numerusform>
            <numerusform>%n pending</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) need(s) you: %1</source>
        <extracomment>%1 lists the sessions&apos; names</extracomment>
        <translation>
            <numerusform>%n session needs you: %1</numerusform>
            <numerusform>%n sessions need you: %1</numerusform>
        </translation>
    </message>
</context>
</TS>
