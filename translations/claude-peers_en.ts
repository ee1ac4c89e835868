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
