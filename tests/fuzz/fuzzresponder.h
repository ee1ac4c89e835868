#pragma once

#include "broker/http/httptypes.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <utility>

namespace Fuzz {

// A fuzz target's stand-in for a connection's responder: open until it is answered or its
// client goes away (close() runs the handler's on-closed callback, as a connection does). A
// subclass's respond() begins with `if (!accept()) return;` and then checks the answer.
class ConnectionResponder : public Broker::Http::Responder
{
public:
    bool isOpen() const override { return m_open; }
    void setOnClosed(std::function<void()> callback) override { m_onClosed = std::move(callback); }
    bool answered() const { return m_answered; }

    // The client went away before an answer.
    void close()
    {
        if (!std::exchange(m_open, false))
            return;
        if (auto callback = std::exchange(m_onClosed, nullptr))
            callback();
    }

protected:
    // True for the answer to check; false after the client left (answering is then a no-op, as
    // on a real connection). A second answer is a finding: a request is answered at most once.
    bool accept()
    {
        if (m_answered) {
            fprintf(stderr, "fuzz: a request was answered twice\n");
            abort();
        }
        if (!m_open)
            return false;
        m_open = false;
        m_answered = true;
        m_onClosed = nullptr;
        return true;
    }

private:
    bool m_open = true;
    bool m_answered = false;
    std::function<void()> m_onClosed;
};

} // namespace Fuzz
