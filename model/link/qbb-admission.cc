/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-admission.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(QbbAdmission);

TypeId
QbbAdmission::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QbbAdmission").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

} // namespace ns3
